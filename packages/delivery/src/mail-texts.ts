/**
 * The layout's own words (docs/decisions.md, "Brand"): the button's label, the line under it and the
 * footer that says why the user got the e-mail. One table, so that a later change translates it;
 * `{company}` is the company's name.
 */
export const mailTexts = {
  lang: "en",
  actions: {
    setPassword: "Set a new password",
  },
  linkHint: "If the button does not work, open this link:",
  footers: {
    recovery: "You got this e-mail because someone asked to recover access to your {company} account.",
    notice: "You got this e-mail because it concerns the security of your {company} account.",
  },
} as const;

/** What a button in an e-mail does: its label's key. */
export type MailAction = keyof typeof mailTexts.actions;
/** Why the user got an e-mail: its footer's key. */
export type MailReason = keyof typeof mailTexts.footers;
