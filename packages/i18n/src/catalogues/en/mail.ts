/**
 * The recovery e-mail (services/recovery): {company}, the {link} that sets a new password, its
 * lifetime in {minutes}. And the words of the e-mails' layout (packages/delivery), the recovery
 * e-mail's and the notices': the button's label, the line under the button, and the footer that
 * says why the user got the e-mail.
 */
export const mail = {
  "recovery.subject": "Recover access to your {company} account",
  "recovery.body":
    "Someone asked to recover access to your {company} account.\nTo set a new password, open this link within {minutes, plural, one {# minute} other {# minutes}} (it works once):\n\n{link}\n\nIf you did not ask for this, ignore this message: nothing changes.",
  "layout.action.setPassword": "Set a new password",
  "layout.linkHint": "If the button does not work, open this link:",
  "layout.footer.recovery":
    "You got this e-mail because someone asked to recover access to your {company} account.",
  "layout.footer.notice": "You got this e-mail because it concerns the security of your {company} account.",
  "emailChange.subject": "Confirm your new e-mail address for {company}",
  "emailChange.body":
    "Someone signed in to your {company} account asked to make this address the account's e-mail.\nTo confirm it, open this link within {minutes, plural, one {# minute} other {# minutes}} (it works once):\n\n{link}\n\nIf you did not ask for this, ignore this message: nothing changes.",
  "layout.action.confirmEmail": "Confirm this e-mail address",
  "layout.footer.emailChange":
    "You got this e-mail because someone asked to make this address the e-mail of a {company} account.",
} as const;
