import Foundation
import OnwardCore
import Testing
import WebPages

@Suite("Signing in and creating an account")
struct SignInPageTests {
    /// The text of the element with this ID (tags dropped).
    static func text(of id: String, in html: String) -> String? {
        guard let open = html.range(of: "id=\"\(id)\""), let start = html[open.upperBound...].firstIndex(of: ">"),
              let end = html[start...].range(of: "</") else { return nil }
        return String(html[html.index(after: start)..<end.lowerBound])
    }

    @Test("creating an account speaks of creating one and gives the username and password rules, each tied to its field",
          arguments: [
              (Language.en, "Create an account to keep your routes on every device you use.",
               "3 to 32 characters: letters A–Z and a–z, digits, full stops (.), underscores (_) and hyphens (-).", "At least 10 characters."),
              (Language.id, "Buat akun untuk menyimpan rute Anda di setiap perangkat yang Anda pakai.",
               "3 sampai 32 karakter: huruf A–Z dan a–z, angka, titik (.), garis bawah (_), dan tanda hubung (-).", "Minimal 10 karakter."),
          ])
    func signUp(language: Language, intro: String, username: String, password: String) throws {
        let html = SignInPage.render(.signUp, context: Fixtures.context(language))
        #expect(html.contains("<p>\(intro)</p>"))
        #expect(!html.contains(Strings(language)(.signInIntro)))
        // The rule of PeopleService.usernameProblem, in words, and the input's own pattern agree.
        #expect(Self.text(of: "username-hint", in: html) == username)
        #expect(html.contains(#"aria-describedby="username-hint""#))
        #expect(html.contains(#"minlength="3" maxlength="32" pattern="[A-Za-z0-9._\-]{3,32}""#))
        #expect(Self.text(of: "password-hint", in: html) == password)
        #expect(html.contains(#"minlength="10""#))
    }

    @Test("signing in keeps its own words and asks for no rules", arguments: Language.allCases)
    func signIn(language: Language) {
        let html = SignInPage.render(.signIn, context: Fixtures.context(language))
        #expect(html.contains("<p>\(Strings(language)(.signInIntro))</p>"))
        #expect(!html.contains("username-hint") && !html.contains("password-hint"))
    }
}
