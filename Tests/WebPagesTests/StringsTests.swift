import Foundation
import OnwardCore
import Testing
import WebPages

@Suite("String tables")
struct StringsTests {
    @Test(arguments: Language.allCases)
    func everyKeyHasText(language: Language) {
        for key in L10nKey.allCases {
            let text = Strings.template(key, in: language)
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) is empty in \(language)")
            #expect(!text.contains(key.rawValue), "\(key) renders as its own key in \(language)")
        }
    }

    @Test func bothLanguagesUseTheSamePlaceholders() {
        for key in L10nKey.allCases {
            let en = Set(Strings.placeholders(in: Strings.template(key, in: .en)))
            let id = Set(Strings.placeholders(in: Strings.template(key, in: .id)))
            #expect(en == id, "\(key): English has \(en), Indonesian has \(id)")
        }
    }

    @Test func indonesianIsIndonesian() {
        let id = Strings(.id)
        #expect(id(.boardDepartures) == "Keberangkatan")
        #expect(id(.boardArrivals) == "Kedatangan")
        #expect(id(.statusOnTime) == "Tepat waktu")
        #expect(id(.statusLate, ["minutes": "5"]) == "Terlambat 5 menit")
        #expect(id(.statusCancelled) == "Dibatalkan")
        #expect(id(.columnPlatform) == "Peron")
        // Most texts differ from English; the few that may not are names and symbols.
        let same = L10nKey.allCases.filter { Strings.template($0, in: .en) == Strings.template($0, in: .id) }
        #expect(same.count < 25, "\(same)")
    }

    @Test func placeholdersAreFilled() {
        let en = Strings(.en)
        #expect(en(.statusLate, ["minutes": "5"]) == "Late 5 min")
        #expect(en(.liveStaleMinutes, ["minutes": "12"]) == "Live data 12 min old")
        #expect(en(.boardArrivesAt, ["time": "08:24"]) == "Arrives 08:24")
    }

    @Test func datesInBothLanguages() throws {
        let date = try #require(ServiceDate(iso: "2026-11-23"))
        #expect(Strings(.en).date(date) == "Mon 23 Nov 2026")
        #expect(Strings(.id).date(date) == "Sen, 23 Nov 2026")
        let may = try #require(ServiceDate(iso: "2027-05-02"))
        #expect(Strings(.id).date(may) == "Min, 2 Mei 2027")
    }
}

@Suite("Placeholders")
struct PlaceholderTests {
    @Test func valuesAreNotFilledTwice() {
        let en = Strings(.en)
        #expect(en(.alertActiveBetween, ["start": "{end}", "end": "10:00"]) == "{end} to 10:00")
        #expect(en(.statusLate, [:]) == "Late {minutes} min")
        #expect(Strings.placeholders(in: "a {x} b {y}") == ["x", "y"])
    }
}
