import type { ErrorCode } from "@auth/errors";

/** What the user is told for each error code of the suite (packages/errors/src/codes.ts). */
export const errors = {
  "auth.apikey.missing":
    "This sign-in page is not set up correctly (no API key). Please tell the site's support.",
  "auth.apikey.invalid":
    "This sign-in page is not set up correctly (its API key is not accepted). Please tell the site's support.",
  "auth.header.missing": "Your sign-in was interrupted. Please start again.",
  "auth.header.invalid": "Your sign-in was interrupted. Please start again.",
  "auth.token.invalid": "Your sign-in is no longer valid. Please start again.",
  "auth.token.expired": "Your sign-in took too long and has expired. Please start again.",
  "auth.session.invalid": "This step does not fit where your sign-in is. Please start again.",
  "auth.loginid.notfound":
    "We do not know this login ID. Check the phone number, e-mail address or login name you entered.",
  "auth.user.restricted": "Sign-in is restricted for this account. Please contact support.",
  "auth.user.closed": "This account is closed.",
  "auth.user.denied": "Access to this service is denied for this account. Please contact support.",
  "auth.restricted": "Sign-in is blocked for now.",
  "auth.password.invalid": "The password is not right.",
  "auth.credentials.invalid": "The login ID or the password is not right.",
  "auth.captcha.missing": "Please confirm that you are not a robot.",
  "auth.captcha.invalid": "The security check did not pass. Please confirm that you are not a robot.",
  "auth.otp.invalid": "The code is not right. A code can be tried only once: ask for a new code.",
  "auth.backupcode.invalid": "The backup code is not right, or it was used before.",
  "auth.disclaimer.invalid": "Please accept the terms to continue.",
  "auth.oauth.failed": "Signing in with the provider did not work. Please try again.",
  "auth.oauth.notfound": "No account here is linked to the account you used at the provider.",
  "auth.controlanswer.invalid": "The answer is not right. After three wrong answers you have to start again.",
  "recovery.method.restricted": "This way of recovering access is not offered. Please choose another.",
  "recovery.phone.notset": "There is no phone number on this account. Please choose another way.",
  "recovery.email.notset": "There is no e-mail address on this account. Please choose another way.",
  "recovery.question.notset": "There is no control question on this account. Please choose another way.",
  "request.validation.failed": "Something you entered is not valid. Please check it.",
  "auth.session.notfound": "This session has ended already.",
  "auth.reauthentication.required": "For your security, sign out and sign in again to do this.",
  "auth.passkey.invalid": "The passkey was not accepted.",
  "auth.passkey.notfound": "This passkey is not on your account any more.",
  "auth.contact.unavailable":
    "This phone number or e-mail address cannot be used for your account. Please choose another.",
  "request.ratelimit.exceeded": "Too many requests.",
  "request.route.notfound": "This page could not reach the sign-in service. Please tell the site's support.",
  "request.method.notallowed":
    "This page could not reach the sign-in service. Please tell the site's support.",
  "service.unavailable": "The sign-in service is not available right now. Please try again in a moment.",
  "internal.error": "Something went wrong on our side. Please try again.",
  "caller.forbidden": "Something went wrong on our side. Please try again.",
  "admin.unauthenticated": "This needs an administrator.",
  "resource.notfound": "What you asked for does not exist.",
  "resource.exists": "This exists already.",
} as const satisfies Record<ErrorCode, string>;
