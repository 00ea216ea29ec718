/** The recovery e-mail (services/recovery): {company}, the {link} that sets a new password, its lifetime in {minutes}. */
export const mail = {
  "recovery.subject": "Recover access to your {company} account",
  "recovery.body":
    "Someone asked to recover access to your {company} account.\nTo set a new password, open this link within {minutes, plural, one {# minute} other {# minutes}} (it works once):\n\n{link}\n\nIf you did not ask for this, ignore this message: nothing changes.",
} as const;
