/**
 * Every other text the reference page (web/login-page) shows, keyed by where it shows: the whole
 * page, then each step, then each part of the signed-in view. Times are formatted in the browser's
 * zone.
 */
export const page = {
  "document.title": "Sign in",
  "document.stepTitle": "{step} – Sign in",
  "document.companyTitle": "{company} – Sign in",
  "document.companyStepTitle": "{step} – {company}",
  "document.loading": "Loading…",
  "document.startFailed": "The sign-in page could not start. Please reload it.",
  "link.newTab": "(opens in a new tab)",
  "error.unknown": "Something went wrong ({code}). Please try again.",
  "wait.seconds": "{seconds, plural, one {Try again in # second.} other {Try again in # seconds.}}",
  "wait.minutes": "{minutes, plural, one {Try again in # minute.} other {Try again in # minutes.}}",

  "common.continue": "Continue",
  "common.signIn": "Sign in",
  "common.backToSignIn": "Back to sign in",
  "common.forgotPassword": "Forgot your password?",
  "common.loginId": "Phone number, e-mail or login name",
  "common.usePasskeyInstead": "Use your passkey instead",
  "common.showPassword": "Show password",
  "common.hidePassword": "Hide password",

  "captcha.legend": "Security check",
  "captcha.notRobot": "I am not a robot",
  "disclaimers.legend": "Terms to accept",
  "disclaimers.accept": "I accept the {title}",
  "disclaimers.read": "Read the {title}",

  "identify.title": "Sign in",
  "identify.loginIdMissing": "Please enter your phone number, e-mail address or login name.",
  "identify.otherWays": "Or sign in with",
  "identify.provider": "Sign in with {provider}",
  "oauth.providerRefused": "The provider did not sign you in.",
  "oauth.notStarted": "This sign-in with a provider was not started on this page. Please start again.",

  "passkeySignIn.button": "Sign in with a passkey",
  "passkeySignIn.refused":
    "The passkey was not accepted. Use a passkey of your account on this site, or enter your login ID.",
  "passkeySignIn.notOffered": "Signing in with a passkey is not offered here.",
  "passkeyCeremony.spent":
    "The passkey was not accepted. Go on another way, or sign in again to try a passkey once more.",
  "passkeyCeremony.previouslyRegistered":
    "This device or security key has a passkey of your account already.",
  "passkeyCeremony.otherDevice":
    "This device or security key cannot keep a passkey that asks for your PIN, fingerprint or face. Try another one.",
  "passkeyCeremony.wrongAddress":
    "Passkeys cannot be used at this address of the sign-in page. Please tell the site's support.",
  "passkeyCeremony.cancelled": "No passkey was used: the request was cancelled or timed out.",
  "passkeyCeremony.failed": "The passkey did not work. Please try again.",

  "password.title": "Enter your password",
  "password.intro": "Signing in as {loginId}.",
  "password.label": "Password",
  "password.someoneElse": "Sign in as someone else",

  "otp.smsTitle": "Enter the code from the SMS",
  "otp.smsIntro": "We sent a 6-digit code to {phone}.",
  "otp.smsLabel": "Code from the SMS",
  "otp.smsRisk":
    "A code by SMS can be taken by someone who moves your number to their SIM card or reads your messages. An authenticator app is safer: you can set one up once you are signed in.",
  "otp.appTitle": "Enter the code from your authenticator app",
  "otp.appIntro": "Open the app and enter the 6-digit code it shows.",
  "otp.appLabel": "Code from the app",
  "otp.backupCodeTitle": "Enter a backup code",
  "otp.backupCodeIntro": "Use one of the backup codes you saved. Each works once.",
  "otp.backupCodeLabel": "Backup code",
  "otp.backupCodeHint": "Like ABCD-EFGH-JKMN.",
  "otp.passkeyTitle": "Use your passkey",
  "otp.passkeyIntro":
    "Confirm that it is you with your passkey: your device asks for your PIN, fingerprint or face.",
  "otp.usePasskey": "Use your passkey",
  "otp.sendNewCode": "Send a new code",
  "otp.newCodeSent": "We sent a new code to {phone}.",
  "otp.newCodeNotYet": "A new code cannot be sent yet.",
  "otp.useAppInstead": "Use a code from the app instead",
  "otp.useSmsInstead": "Use a code from an SMS instead",
  "otp.useBackupCodeInstead": "Use a backup code instead",

  "acceptDisclaimers.title": "Accept the terms",
  "acceptDisclaimers.intro": "To finish signing in, please accept these terms.",

  "newPassword.title": "Choose a new password",
  "newPassword.introRecovery": "You proved who you are.",
  "newPassword.introRequired": "You have to choose a new password before you go on.",
  "newPassword.label": "New password",
  "newPassword.save": "Save the new password",
  "newPassword.refused": "This password cannot be used. {rules}",
  "passwordChanged.title": "Your password is changed",
  "passwordChanged.intro": "Sign in with your new password. You were signed out everywhere else.",

  "recoveryStart.title": "Recover access",
  "recoveryStart.intro": "Prove who you are, then choose a new password.",
  "recoveryStart.methodLegend": "How do you want to prove who you are?",
  "recoveryStart.methodDefault": "The way I have set up",
  "recoveryStart.methodPhone": "A code by SMS",
  "recoveryStart.methodMail": "A link by e-mail",
  "recoveryStart.methodQuestion": "My control question",
  "mailSent.title": "Check your e-mail",
  "mailSent.intro": "We sent a link to {email}. Open it to choose a new password.",
  "question.title": "Answer your control question",
  "question.answerLabel": "Your answer",
  "recoveryLink.title": "This link cannot be used",
  "recoveryLink.invalid": "This link is not valid, or it was used before.",
  "recoveryLink.expired": "This link has expired.",
  "recoveryLink.incomplete": "This link is incomplete.",
  "recoveryLink.askNew": "You can ask for a new link.",
  "recoveryLink.recover": "Recover access",

  "signedIn.title": "You are signed in",
  "signedIn.profile": "Your profile: {profile}.",
  "signedIn.signOut": "Sign out",
  "signedIn.signedOut": "You are signed out.",
  "signedIn.otherSessionsEnded":
    "{count, plural, one {# other session has ended.} other {# other sessions have ended.}}",

  "sessions.heading": "Your sessions",
  "sessions.endOthers": "End all other sessions",
  "sessions.device": "{browser} on {os}",
  "sessions.unknownDevice": "Unknown device",
  "sessions.thisSession": "This session.",
  "sessions.details":
    "From {address}, signed in {createdAt, date, medium}, {createdAt, time, short}, last active {lastSeenAt, date, medium}, {lastSeenAt, time, short}.",
  "sessions.end": "End the session",
  "sessions.endLabel": "End the session of {device}",
  "sessions.ended": "{count, plural, one {The session has ended.} other {# sessions have ended.}}",

  "events.heading": "Recent security activity",
  "events.none": "No recent activity.",
  "events.unavailable": "Your recent activity cannot be shown right now. Please try again later.",
  "events.failed": "Failed.",
  "events.thisSession": "This session.",
  "events.when": "{time, date, medium}, {time, time, short}.",
  "events.whenFrom": "{time, date, medium}, {time, time, short}, from {address}.",
  "events.loginSucceeded": "Signed in",
  "events.loginFailed": "Sign-in failed",
  "events.secondFactorFailed": "Second sign-in step failed",
  "events.accountLocked": "Account locked",
  "events.passwordChanged": "Password changed",
  "events.contactChanged":
    "{factor, select, sms_code {Phone number changed} email_link {E-mail address changed} other {Phone number or e-mail address changed}}",
  "events.factorEnrolled":
    "{factor, select, password {Password added} sms_code {Phone for codes added} app_code {Authenticator app added} backup_code {Backup codes added} passkey {Passkey added} recovery_question {Control question added} other {Sign-in method added}}",
  "events.factorRemoved":
    "{factor, select, password {Password removed} sms_code {Phone for codes removed} app_code {Authenticator app removed} backup_code {Backup codes removed} passkey {Passkey removed} recovery_question {Control question removed} other {Sign-in method removed}}",
  "events.recoveryStarted": "Recovery started",
  "events.recoveryFinished": "Access recovered",
  "events.sessionRevoked": "Session ended",
  "events.adminFactorChanged": "Sign-in methods changed by an administrator",
  "events.adminUserChanged": "Account changed by an administrator",
  "events.adminSessionRevoked": "Session ended by an administrator",

  "passkeys.heading": "Passkeys",
  "passkeys.intro":
    "Sign in with your device's PIN, fingerprint or face instead of a password and code. A passkey works only on this site: a look-alike site gets nothing from it.",
  "passkeys.none": "You have no passkeys yet.",
  "passkeys.unsupported": "This browser cannot make passkeys.",
  "passkeys.nameLabel": "Name of the new passkey",
  "passkeys.nameHint": "Like “Work laptop”, to tell it apart in this list.",
  "passkeys.add": "Add a passkey",
  "passkeys.synced": "Synced to your other devices.",
  "passkeys.deviceBound": "On one device or security key.",
  "passkeys.used":
    "Added {createdAt, date, medium}, {createdAt, time, short}, last used {lastUsedAt, date, medium}, {lastUsedAt, time, short}.",
  "passkeys.unused": "Added {createdAt, date, medium}, {createdAt, time, short}, not used yet.",
  "passkeys.cloneSuspected": "It may have been copied, so it no longer signs in: remove it.",
  "passkeys.rename": "Rename",
  "passkeys.renameLabel": "Rename {name}",
  "passkeys.newNameLabel": "New name for {name}",
  "passkeys.saveName": "Save the name",
  "passkeys.cancel": "Cancel",
  "passkeys.remove": "Remove",
  "passkeys.removeLabel": "Remove {name}",
  "passkeys.removeQuestion": "Remove “{name}”? It will no longer sign you in.",
  "passkeys.keep": "Keep it",
  "passkeys.reauthenticate":
    "For your security, changing your passkeys needs a recent sign-in: sign out and sign in again.",
  "passkeys.newRefused": "The new passkey was not accepted. Please try again.",
  "passkeys.nameTooLong": "Please enter a name of at most {max} characters.",
  "passkeys.added": "Your passkey “{name}” is added: sign in with it from now on.",
  "passkeys.renamed": "Your passkey “{name}” is now called “{newName}”.",
  "passkeys.removed": "Your passkey “{name}” is removed.",

  "authenticator.heading": "Authenticator app",
  "authenticator.intro":
    "Sign in with a code from an app instead of an SMS, which someone who takes over your phone number or reads your messages could use.",
  "authenticator.setUp": "Set up authenticator app",
  "authenticator.scan": "Scan this QR code with your authenticator app, then enter the code it shows.",
  "authenticator.qrLabel": "QR code for your authenticator app",
  "authenticator.openApp": "Open in an authenticator app on this device",
  "authenticator.byHand": "Or enter this key in the app by hand:",
  "authenticator.codeLabel": "Code from the app",
  "authenticator.newCodeLabel": "Code from the new app",
  "authenticator.currentCodeLabel": "Code from the app you have now",
  "authenticator.currentCodeHint":
    "A code of the authenticator app you sign in with now: it is replaced by the new one.",
  "authenticator.confirm": "Confirm",
  "authenticator.replaceNotice":
    "Your account has an authenticator app already. To replace it, enter a code from the app you have now too.",
  "authenticator.codeWrong": "The code is not right. Enter the code the app shows now.",
  "authenticator.codesWrong": "A code is not right. Enter the codes both apps show now.",
  "authenticator.done": "Your authenticator app is set up: sign in with its codes from now on.",

  "backupCodes.heading": "Backup codes",
  "backupCodes.intro":
    "One-time codes to sign in with when you cannot use your passkey, app or phone. New codes end the ones you had.",
  "backupCodes.get": "Get new backup codes",
  "backupCodes.first":
    "Your first backup codes are below: with them you can sign in on a day you cannot use your passkey or app.",
  "backupCodes.saveFirst":
    "Save these codes somewhere safe now: they are shown only this once. Each works once.",
  "backupCodes.saveNew":
    "Save these codes somewhere safe now: they are shown only this once. Each works once; the codes you had before no longer work.",
  "backupCodes.reauthenticate":
    "For your security, new backup codes need a recent sign-in with all your factors: sign out, sign in again (with your passkey or app, if you have one), then get them here.",

  "passwordChange.heading": "Change your password",
  "passwordChange.intro":
    "Your other sessions end, so whoever knew the old password is signed out. Stay signed in here, or sign out here too.",
  "passwordChange.currentLabel": "Current password",
  "passwordChange.currentHint": "You may leave it empty right after signing in.",
  "passwordChange.signOutHere": "Sign out here too",
  "passwordChange.submit": "Change password",
  "passwordChange.reauthenticate":
    "Enter your current password, or sign out and sign in again to change it without.",
  "passwordChange.done": "Your password is changed.",

  "phoneChange.heading": "Change your phone number",
  "phoneChange.intro":
    "Codes, recovery messages and notices go to your phone. A code sent to the new number confirms it, and your current number is told of the change.",
  "phoneChange.label": "New phone number",
  "phoneChange.hint": "Like +49 151 12345678.",
  "phoneChange.send": "Send a code",
  "phoneChange.sent": "We sent a 6-digit code to {phone}. Enter it below.",
  "phoneChange.confirm": "Confirm the new number",
  "phoneChange.invalid": "Please enter a phone number other than the one you have now.",
  "phoneChange.done": "Your phone number is now {phone}.",

  "emailChange.heading": "Change your e-mail address",
  "emailChange.intro":
    "Recovery links and notices go to your e-mail. A link sent to the new address confirms it, and your current address is told of the change.",
  "emailChange.label": "New e-mail address",
  "emailChange.send": "Send a link",
  "emailChange.sent": "We sent a link to {email}. Open it to confirm your new address.",
  "emailChange.invalid": "Please enter an e-mail address other than the one you have now.",
  "emailChange.notOffered": "Your e-mail address cannot be changed here. Please ask the site's support.",
  "emailLink.title": "Your e-mail address is changed",
  "emailLink.intro": "Sign in with your new address from now on.",
  "emailLink.askNew": "Sign in and ask for a new link.",
} as const;
