// Each tells the user what happened, when, and what to do if it was not them (NIST SP 800-63B-4
// 4.2.3, 4.6); none holds a secret, and no placeholder can bring one in. Keyed by the event's name
// (services/identity/src/notifications/templates.ts) and the part: subject, body, sms.

/** The notices of security events (services/identity): {company}, {time} as a date, and {device} (new_device only). */
export const notices = {
  "password_changed.subject": "Your {company} password was changed",
  "password_changed.body":
    "The password of your {company} account was changed on {time, date, long} at {time, time, ::jmmz}.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "password_changed.sms":
    "{company}: your password was changed on {time, date, medium} at {time, time, ::jmmz}. Not you? Start access recovery or contact your administrator.",
  "recovery_started.subject": "Access recovery of your {company} account started",
  "recovery_started.body":
    "An access recovery of your {company} account started on {time, date, long} at {time, time, ::jmmz}.\n\nIf this was not you, your password stays as it is unless the recovery completes; contact your administrator.",
  "recovery_started.sms":
    "{company}: an access recovery of your account started on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator.",
  "recovery_completed.subject": "Access to your {company} account was recovered",
  "recovery_completed.body":
    "Access to your {company} account was recovered on {time, date, long} at {time, time, ::jmmz}: a new password was set and every session of the account ended.\n\nIf this was not you, contact your administrator at once.",
  "recovery_completed.sms":
    "{company}: access to your account was recovered on {time, date, medium} at {time, time, ::jmmz} with a new password. Not you? Contact your administrator at once.",
  "backup_codes_issued.subject": "New backup codes for your {company} account",
  "backup_codes_issued.body":
    "A new set of backup codes for your {company} account was issued on {time, date, long} at {time, time, ::jmmz}; any codes issued before no longer work.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "backup_codes_issued.sms":
    "{company}: new backup codes were issued for your account on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator.",
  "locked_out.subject": "Your {company} account is locked",
  "locked_out.body":
    "Your {company} account was locked on {time, date, long} at {time, time, ::jmmz} after too many failed attempts to sign in. It unlocks by itself after a while; after very many failed attempts in a row, only when you recover access.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "locked_out.sms":
    "{company}: your account was locked on {time, date, medium} at {time, time, ::jmmz} after failed sign-in attempts. Not you? Start access recovery or contact your administrator.",
  "authenticator_app_added.subject": "An authenticator app was set up for your {company} account",
  "authenticator_app_added.body":
    "An authenticator app became the second factor of your {company} account on {time, date, long} at {time, time, ::jmmz}; sign-ins now ask for its code instead of a code by SMS.\n\nIf this was not you, contact your administrator at once: they can remove the app.",
  "authenticator_app_added.sms":
    "{company}: an authenticator app was set up for your account on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator at once.",
  "authenticator_app_removed.subject": "The authenticator app of your {company} account was removed",
  "authenticator_app_removed.body":
    "Your administrator removed the authenticator app of your {company} account on {time, date, long} at {time, time, ::jmmz}, and every session of the account ended.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "authenticator_app_removed.sms":
    "{company}: the authenticator app of your account was removed on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator.",
  "passkey_added.subject": "A passkey was added to your {company} account",
  "passkey_added.body":
    "A passkey was added to your {company} account on {time, date, long} at {time, time, ::jmmz}; it can now be used to sign in.\n\nIf this was not you, contact your administrator at once: they can remove the passkey.",
  "passkey_added.sms":
    "{company}: a passkey was added to your account on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator at once.",
  "passkey_renamed.subject": "A passkey of your {company} account was renamed",
  "passkey_renamed.body":
    "One of the passkeys of your {company} account was renamed on {time, date, long} at {time, time, ::jmmz}.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "passkey_renamed.sms":
    "{company}: a passkey of your account was renamed on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator.",
  "passkey_removed.subject": "A passkey was removed from your {company} account",
  "passkey_removed.body":
    "A passkey was removed from your {company} account on {time, date, long} at {time, time, ::jmmz}; it can no longer be used to sign in.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator.",
  "passkey_removed.sms":
    "{company}: a passkey was removed from your account on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator.",
  "passkey_clone_suspected.subject": "A passkey of your {company} account may have been copied",
  "passkey_clone_suspected.body":
    "On {time, date, long} at {time, time, ::jmmz}, a passkey of your {company} account signed in with a counter that did not grow, which a copied key does. The passkey is refused from now on; sign in another way, and ask your administrator to remove it.\n\nIf you did not try to sign in then, contact your administrator at once.",
  "passkey_clone_suspected.sms":
    "{company}: a passkey of your account may have been copied ({time, date, medium}, {time, time, ::jmmz}) and is refused from now on. Contact your administrator.",
  "phone_changed.subject": "The phone number of your {company} account was changed",
  "phone_changed.body":
    "The phone number of your {company} account was changed on {time, date, long} at {time, time, ::jmmz}; codes and recovery messages now go to the new number.\n\nIf this was not you, start access recovery on the {company} login page or contact your administrator at once.",
  "phone_changed.sms":
    "{company}: the phone number of your account was changed on {time, date, medium} at {time, time, ::jmmz}; this number gets no more codes. Not you? Contact your administrator at once.",
  "email_changed.subject": "The e-mail address of your {company} account was changed",
  "email_changed.body":
    "The e-mail address of your {company} account was changed on {time, date, long} at {time, time, ::jmmz}; messages about your account now go to the new address, not to this one.\n\nIf this was not you, contact your administrator at once.",
  "email_changed.sms":
    "{company}: the e-mail address of your account was changed on {time, date, medium} at {time, time, ::jmmz}. Not you? Contact your administrator at once.",
  "new_device.subject": "New sign-in to your {company} account",
  "new_device.body":
    "Your {company} account was signed in to from {device} on {time, date, long} at {time, time, ::jmmz}, a device or network it was not used from lately.\n\nIf this was not you, end that session in the list of your sessions on the {company} login page, change your password, and contact your administrator.",
  "new_device.sms":
    "{company}: new sign-in from {device} on {time, date, medium} at {time, time, ::jmmz}. Not you? End the session, change your password and contact your administrator.",
} as const;
