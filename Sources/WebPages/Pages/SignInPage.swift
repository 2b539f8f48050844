/// Signing in and creating an account: one form each, posted to the server (no script needed).
public enum SignInPage {
    public enum Mode: Sendable { case signIn, signUp }

    /// - Parameter problem: what went wrong with the last attempt, in words (the form keeps the username).
    /// Telegram sign-in on the page: the bot's numeric ID (Telegram's login window is opened for it) and the
    /// anti-forgery token the page posts back with Telegram's signed data (`/signin/telegram`).
    public struct Telegram: Sendable {
        public var botID: String
        public var formToken: String
        public init(botID: String, formToken: String) { self.botID = botID; self.formToken = formToken }
    }

    /// - Parameter telegram: when Telegram sign-in is on, the button that opens Telegram's login window; its
    ///   callback posts the signed data to this server with the page's anti-forgery token (no redirect that
    ///   a link made elsewhere could imitate).
    public static func render(_ mode: Mode, username: String = "", problem: String? = nil, telegram: Telegram? = nil, context: PageContext) -> String {
        let s = context.strings
        let signUp = mode == .signUp
        let problemHTML: HTML = problem.map { "<p class=\"form-problem\" role=\"alert\">\($0)</p>" } ?? .empty
        let nameField: HTML = signUp ? """
            <p class="form-field"><label class="field-label" for="display-name">\(s(.signInDisplayName))</label>\
            <input id="display-name" name="displayName" type="text" maxlength="80" autocomplete="name"></p>
            """ : .empty
        let main: HTML = """
        <div class="page-head"><h1>\(s(signUp ? .signUpTitle : .signInTitle))</h1></div>
        <p>\(s(signUp ? .signUpIntro : .signInIntro))</p>
        \(problemHTML)
        <form class="panel person-sign-in" method="post" action="\(signUp ? Links.signUp : Links.signIn)">
        <p class="form-field"><label class="field-label" for="username">\(s(.signInUsername))</label>\
        <input id="username" name="username" type="text" required minlength="3" maxlength="32" pattern="[A-Za-z0-9._\\-]{3,32}" \
        autocomplete="username" autocapitalize="none" spellcheck="false"\(HTML.attribute("aria-describedby", signUp ? "username-hint" : nil))\(HTML.attribute("value", username))>\
        \(signUp ? "<span class=\"field-hint\" id=\"username-hint\">\(s(.signUpUsernameHint))</span>" as HTML : .empty)</p>
        <p class="form-field"><label class="field-label" for="password">\(s(.signInPassword))</label>\
        <input id="password" name="password" type="password" required\(HTML.attribute("minlength", signUp ? "10" : nil)) maxlength="1000" \
        autocomplete="\(signUp ? "new-password" : "current-password")"\(HTML.attribute("aria-describedby", signUp ? "password-hint" : nil))>\
        \(signUp ? "<span class=\"field-hint\" id=\"password-hint\">\(s(.signInPasswordHint))</span>" as HTML : .empty)</p>
        \(nameField)
        <button type="submit" class="button button-primary">\(s(signUp ? .signUpSubmit : .signInSubmit))</button>
        </form>
        <p>\(s(signUp ? .signInHaveAccount : .signInNoAccount)) <a href="\(signUp ? Links.signIn : Links.signUp)">\(s(signUp ? .signInTitle : .signUpTitle))</a></p>
        \(telegram.map { t in
            """
            <section class="telegram-sign-in" aria-label="\(s(.signInTelegram))"><h2>\(s(.signInTelegram))</h2>
            <script async src="https://telegram.org/js/telegram-widget.js?22"></script>
            <form method="post" action="\(Links.signIn)/telegram" data-telegram-sign-in data-bot-id="\(t.botID)">
            <input type="hidden" name="_csrf" value="\(t.formToken)">
            <button type="button" class="button button-telegram">\(s(.signInTelegramButton))</button>
            </form></section>
            """ as HTML
        } ?? .empty)
        """
        return Layout.document(title: s(signUp ? .signUpTitle : .signInTitle), context: context,
                               address: PageAddress(path: signUp ? Links.signUp : Links.signIn), section: .me, bodyClass: "page-sign-in", main: main)
    }
}

/// The account page: who is signed in, signing out (here or everywhere), the export, and deleting the account.
public enum AccountPage {
    /// `bio` and `photo` (the photo's address) are the profile friends see on trips.
    public static func render(displayName: String, username: String?, bio: String = "", photo: String? = nil, context: PageContext) -> String {
        let s = context.strings
        guard let person = context.person else { return SignInPage.render(.signIn, context: context) }
        let who = username.map { "\(displayName) (\($0))" } ?? displayName
        let main: HTML = """
        <div class="page-head"><h1>\(s(.accountTitle))</h1></div>
        <p>\(s(.accountSignedInAs, ["name": who]))</p>
        <div class="account-actions">
        \(PersonForm.render(action: Links.signOut, fields: [], label: s(.accountSignOut), person: person))
        \(PersonForm.render(action: Links.signOut, fields: [("everywhere", "1")], label: s(.accountSignOutEverywhere), person: person))
        <p><a class="button" href="/api/v1/me/export" download>\(s(.accountExport))</a></p>
        </div>
        <section class="card profile"><h2>\(s(.profileTitle))</h2>
        \(photo.map { HTML(trusted: "<img class=\"profile-photo\" alt=\"\" width=\"96\" height=\"96\" src=\"\(HTML.escapeAttribute($0))\">") } ?? .empty)
        <form method="post" action="/account/profile"><input type="hidden" name="_csrf" value="\(person.csrfToken)">
        <p class="form-field"><label class="field-label" for="profile-name">\(s(.profileDisplayName))</label>\
        <input id="profile-name" name="displayName" type="text" required maxlength="80"\(HTML.attribute("value", displayName))></p>
        <p class="form-field"><label class="field-label" for="profile-bio">\(s(.profileBio))</label>\
        <textarea id="profile-bio" name="bio" maxlength="280" rows="3">\(bio)</textarea></p>
        <p class="form-field"><label class="field-label" for="profile-photo">\(s(.profilePhoto))</label>\
        <input id="profile-photo" type="file" accept="image/jpeg,image/png" data-profile-photo></p>
        <button type="submit" class="button">\(s(.profileSave))</button>
        </form></section>
        <form class="panel account-delete" method="post" action="/account/delete">
        <input type="hidden" name="_csrf" value="\(person.csrfToken)">
        <p class="journey-check"><input id="delete-confirm" name="confirm" type="checkbox" value="1" required> \
        <label for="delete-confirm">\(s(.accountDeleteConfirm))</label></p>
        <button type="submit" class="button button-danger">\(s(.accountDelete))</button>
        </form>
        """
        return Layout.document(title: s(.accountTitle), context: context, address: PageAddress(path: Links.account), section: .me,
                               bodyClass: "page-account", main: main)
    }
}
