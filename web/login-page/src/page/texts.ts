/**
 * Every word the page shows but the error codes' messages (messages.ts), by the part of the page
 * that shows it: one table, so that a translation is a table of its own.
 */

/** The language of the page's words (index.html's `lang`): their plurals, dates and times follow it. */
export const pageLanguage = "en";

const pluralRules = new Intl.PluralRules(pageLanguage);

/** The form of a phrase for a count, as the language's plural rules choose it ("1 session", "2 sessions"). */
export function plural(count: number, forms: { one: string; other: string }): string {
  return pluralRules.select(count) === "one" ? forms.one : forms.other;
}

export const texts = {
  page: {
    /** The document's title while a step shows. */
    title: (step: string) => `${step} – Sign in`,
    couldNotStart: "The sign-in page could not start. Please reload it.",
    opensInNewTab: " (opens in a new tab)",
    unknownError: (code: string) => `Something went wrong (${code}). Please try again.`,
    waitSeconds: (seconds: number) =>
      plural(seconds, { one: `Try again in ${seconds} second.`, other: `Try again in ${seconds} seconds.` }),
    waitMinutes: (minutes: number) =>
      plural(minutes, { one: `Try again in ${minutes} minute.`, other: `Try again in ${minutes} minutes.` }),
  },
  showPassword: { show: "Show password", hide: "Hide password" },
  identify: {
    title: "Sign in",
    loginId: "Phone number, e-mail or login name",
    continue: "Continue",
    noLoginId: "Please enter your phone number, e-mail address or login name.",
    forgotPassword: "Forgot your password?",
    otherWays: "Or sign in with",
    withProvider: (provider: string) => `Sign in with ${provider}`,
  },
  passkeySignIn: {
    button: "Sign in with a passkey",
    notAccepted:
      "The passkey was not accepted. Use a passkey of your account on this site, or enter your login ID.",
    notOffered: "Signing in with a passkey is not offered here.",
  },
  password: {
    title: "Enter your password",
    signingInAs: (loginId: string) => `Signing in as ${loginId}.`,
    label: "Password",
    submit: "Sign in",
    usePasskey: "Use your passkey instead",
    forgotPassword: "Forgot your password?",
    someoneElse: "Sign in as someone else",
  },
  passkey: {
    spent: "The passkey was not accepted. Go on another way, or sign in again to try a passkey once more.",
    otherDevice:
      "This device or security key cannot keep a passkey that asks for your PIN, fingerprint or face. Try another one.",
    wrongAddress:
      "Passkeys cannot be used at this address of the sign-in page. Please tell the site's support.",
    registeredAlready: "This device or security key has a passkey of your account already.",
    cancelled: "No passkey was used: the request was cancelled or timed out.",
    failed: "The passkey did not work. Please try again.",
  },
  otp: {
    smsRisk:
      "A code by SMS can be taken by someone who moves your number to their SIM card or reads your messages. An authenticator app is safer: you can set one up once you are signed in.",
    backupCode: "Backup code",
    backupCodeHint: "Like ABCD-EFGH-JKMN.",
    appCode: "Code from the app",
    smsCode: "Code from the SMS",
    continue: "Continue",
    usePasskey: "Use your passkey",
    sendNew: "Send a new code",
    sentNew: (phone: string) => `We sent a new code to ${phone}.`,
    notYet: "A new code cannot be sent yet.",
    otherWays: {
      passkey: "Use your passkey instead",
      app: "Use a code from the app instead",
      sms: "Use a code from an SMS instead",
      backupCode: "Use a backup code instead",
    },
    passkeyTitle: "Use your passkey",
    passkeyIntro:
      "Confirm that it is you with your passkey: your device asks for your PIN, fingerprint or face.",
    backupCodeTitle: "Enter a backup code",
    backupCodeIntro: "Use one of the backup codes you saved. Each works once.",
    appTitle: "Enter the code from your authenticator app",
    appIntro: "Open the app and enter the 6-digit code it shows.",
    smsTitle: "Enter the code from the SMS",
    smsIntro: (phone: string) => `We sent a 6-digit code to ${phone}.`,
  },
  captcha: { legend: "Security check", notRobot: "I am not a robot" },
  disclaimers: {
    legend: "Terms to accept",
    accept: (title: string) => `I accept the ${title}`,
    read: (title: string) => `Read the ${title}`,
    title: "Accept the terms",
    intro: "To finish signing in, please accept these terms.",
    continue: "Continue",
  },
  newPassword: {
    title: "Choose a new password",
    afterRecovery: "You proved who you are.",
    required: "You have to choose a new password before you go on.",
    label: "New password",
    submit: "Save the new password",
    refused: (rule: string) => `This password cannot be used. ${rule}`,
    changedTitle: "Your password is changed",
    changedIntro: "Sign in with your new password. You were signed out everywhere else.",
    signIn: "Sign in",
  },
  question: { title: "Answer your control question", answer: "Your answer", continue: "Continue" },
  recovery: {
    title: "Recover access",
    intro: "Prove who you are, then choose a new password.",
    loginId: "Phone number, e-mail or login name",
    methods: {
      any: "The way I have set up",
      phone: "A code by SMS",
      mail: "A link by e-mail",
      question: "My control question",
    },
    how: "How do you want to prove who you are?",
    continue: "Continue",
    back: "Back to sign in",
    mailTitle: "Check your e-mail",
    mailIntro: (email: string) => `We sent a link to ${email}. Open it to choose a new password.`,
    linkTitle: "This link cannot be used",
    linkInvalid: "This link is not valid, or it was used before.",
    linkExpired: "This link has expired.",
    linkIncomplete: "This link is incomplete.",
    askNewLink: (why: string) => `${why} You can ask for a new link.`,
  },
  oauth: {
    refused: "The provider did not sign you in.",
    notStarted: "This sign-in with a provider was not started on this page. Please start again.",
  },
  signedIn: {
    title: "You are signed in",
    profile: (mnemocode: string) => `Your profile: ${mnemocode}.`,
    signOut: "Sign out",
    signedOut: "You are signed out.",
  },
  sessions: {
    heading: "Your sessions",
    endOthers: "End all other sessions",
    end: "End this session",
    endLabel: (device: string) => `End the session of ${device}`,
    thisOne: "This session.",
    details: (address: string, started: string, lastActive: string) =>
      `From ${address}, signed in ${started}, last active ${lastActive}.`,
    ended: (count: number) =>
      plural(count, { one: "The session has ended.", other: `${count} sessions have ended.` }),
    othersEnded: (count: number) =>
      plural(count, { one: "1 other session has ended.", other: `${count} other sessions have ended.` }),
    device: (browser: string, system: string) => `${browser} on ${system}`,
    unknownDevice: "Unknown device",
  },
  events: {
    heading: "Recent security activity",
    none: "No recent activity.",
    unavailable: "Your recent activity cannot be shown right now. Please try again later.",
    failed: "Failed.",
    thisSession: "This session.",
    when: (time: string, address: string | null) => (address ? `${time}, from ${address}.` : `${time}.`),
    labels: {
      "auth.login.succeeded": "Signed in",
      "auth.login.failed": "Sign-in failed",
      "auth.second_factor.failed": "Second sign-in step failed",
      "auth.account.locked": "Account locked",
      "auth.password.changed": "Password changed",
      "auth.recovery.started": "Recovery started",
      "auth.recovery.finished": "Access recovered",
      "auth.session.revoked": "Session ended",
      "admin.factor.changed": "Sign-in methods changed by an administrator",
      "admin.user.changed": "Account changed by an administrator",
      "admin.session.revoked": "Session ended by an administrator",
    } as Partial<Record<string, string>>,
    factorAdded: (factor: string) => `${factor} added`,
    factorRemoved: (factor: string) => `${factor} removed`,
    factors: {
      password: "Password",
      sms_code: "Phone for codes",
      app_code: "Authenticator app",
      backup_code: "Backup codes",
      passkey: "Passkey",
      recovery_question: "Control question",
    } as Partial<Record<string, string>>,
    someFactor: "Sign-in method",
  },
  authenticator: {
    heading: "Authenticator app",
    intro:
      "Sign in with a code from an app instead of an SMS, which someone who takes over your phone number or reads your messages could use.",
    start: "Set up authenticator app",
    qrLabel: "QR code for your authenticator app",
    scan: "Scan this QR code with your authenticator app, then enter the code it shows.",
    byHand: "Or enter this key in the app by hand:",
    openApp: "Open in an authenticator app on this device",
    code: "Code from the app",
    newCode: "Code from the new app",
    currentCode: "Code from the app you have now",
    currentCodeHint: "A code of the authenticator app you sign in with now: it is replaced by the new one.",
    confirm: "Confirm",
    replaceNotice:
      "Your account has an authenticator app already. To replace it, enter a code from the app you have now too.",
    codesWrong: "A code is not right. Enter the codes both apps show now.",
    codeWrong: "The code is not right. Enter the code the app shows now.",
    done: "Your authenticator app is set up: sign in with its codes from now on.",
  },
  backupCodes: {
    heading: "Backup codes",
    intro:
      "One-time codes to sign in with when you cannot use your passkey, app or phone. New codes end the ones you had.",
    generate: "Get new backup codes",
    firstNotice:
      "Your first backup codes are below: with them you can sign in on a day you cannot use your passkey or app.",
    saveFirst: "Save these codes somewhere safe now: they are shown only this once. Each works once.",
    saveNew:
      "Save these codes somewhere safe now: they are shown only this once. Each works once; the codes you had before no longer work.",
    reauthenticate:
      "For your security, new backup codes need a recent sign-in with all your factors: sign out, sign in again (with your passkey or app, if you have one), then get them here.",
  },
  passkeys: {
    heading: "Passkeys",
    intro:
      "Sign in with your device's PIN, fingerprint or face instead of a password and code. A passkey works only on this site: a look-alike site gets nothing from it.",
    none: "You have no passkeys yet.",
    name: "Name of the new passkey",
    nameHint: "Like “Work laptop”, to tell it apart in this list.",
    add: "Add a passkey",
    unsupported: "This browser cannot make passkeys.",
    rename: "Rename",
    renameLabel: (name: string) => `Rename ${name}`,
    remove: "Remove",
    removeLabel: (name: string) => `Remove ${name}`,
    newName: (name: string) => `New name for ${name}`,
    saveName: "Save the name",
    cancel: "Cancel",
    removeQuestion: (name: string) => `Remove “${name}”? It will no longer sign you in.`,
    keep: "Keep it",
    reauthenticate:
      "For your security, changing your passkeys needs a recent sign-in: sign out and sign in again.",
    newNotAccepted: "The new passkey was not accepted. Please try again.",
    nameTooLong: "Please enter a name of at most 64 characters.",
    added: (name: string) => `Your passkey “${name}” is added: sign in with it from now on.`,
    renamed: (before: string, after: string) => `Your passkey “${before}” is now called “${after}”.`,
    removed: (name: string) => `Your passkey “${name}” is removed.`,
    kinds: { synced: "Synced to your other devices", "device-bound": "On one device or security key" },
    lastUsed: (time: string) => `last used ${time}`,
    notUsed: "not used yet",
    details: (kind: string, added: string, used: string) => `${kind}. Added ${added}, ${used}.`,
    copied: (details: string) => `${details} It may have been copied, so it no longer signs in: remove it.`,
  },
} as const;
