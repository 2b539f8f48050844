import DataSources
import Foundation
import Testing

@Suite struct XMLReaderTests {
    @Test func readsNamesWithoutPrefixesAttributesTextAndEntities() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
            <lt4:service a="1" b='two &amp; three'><lt4:std>23:50</lt4:std><lt4:etd>On time</lt4:etd>
            <msg>&lt;p&gt;Lifts &#x26; stairs&#33;<![CDATA[ <raw> ]]></msg><empty/></lt4:service>
            </soap:Body></soap:Envelope>
            """
        let root = try XMLReader.parse(Data(xml.utf8))
        #expect(root.name == "Envelope" && root.prefix == "soap")
        let service = try #require(root.descendant("service"))
        #expect(service.attributes == ["a": "1", "b": "two & three"])
        #expect(service.childText("std") == "23:50")
        #expect(service.childText("etd") == "On time")
        #expect(service.child("msg")?.text == "<p>Lifts & stairs! <raw> ")
        #expect(service.child("empty")?.children.isEmpty == true)
        #expect(root.descendants("std").count == 1)
    }

    @Test func refusesMalformedDocumentsSayingWhere() {
        for bad in ["", "<a>", "<a></b>", "<a>&bogus;</a>", "<a b=1></a>", "<a></a><b/>", "<a>x</a", "plain text"] {
            #expect(throws: XMLError.self, "\(bad)") { try XMLReader.parse(Data(bad.utf8)) }
        }
        do {
            _ = try XMLReader.parse(Data("<a>\n<b>\n</c></a>".utf8))
            Issue.record("parsed a mismatched end tag")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("</c>"))
        }
    }

    @Test func deepNestingIsReadIteratively() throws {
        let depth = 2_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        var element = try XMLReader.parse(Data(xml.utf8))
        var levels = 1
        while let child = element.children.first { element = child; levels += 1 }
        #expect(levels == depth)
    }

    @Test func parsesTheSameInParallel() async throws {
        let xml = Data((0..<200).map { "<row id=\"\($0)\"><v>\($0 * 7)</v></row>" }.joined().utf8)
        let document = Data("<rows>".utf8) + xml + Data("</rows>".utf8)
        let expected = try XMLReader.parse(document)
        try await withThrowingTaskGroup(of: XMLElement.self) { group in
            for _ in 0..<8 { group.addTask { try XMLReader.parse(document) } }
            for try await result in group { #expect(result == expected) }
        }
    }
}
