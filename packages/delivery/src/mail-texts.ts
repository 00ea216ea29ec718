import type { MessageKey } from "@auth/i18n";

/**
 * The layout's own words (docs/decisions.md, "Brand" and "Languages"): each button's label and each
 * footer, as messages of the i18n `mail` catalogue, so that they come in the e-mail's language.
 */
export const actionLabels = {
  setPassword: "layout.action.setPassword",
  confirmEmail: "layout.action.confirmEmail",
} as const satisfies Record<string, MessageKey<"mail">>;

export const footers = {
  recovery: "layout.footer.recovery",
  notice: "layout.footer.notice",
  emailChange: "layout.footer.emailChange",
} as const satisfies Record<string, MessageKey<"mail">>;

/** What a button in an e-mail does: its label's key. */
export type MailAction = keyof typeof actionLabels;
/** Why the user got an e-mail: its footer's key. */
export type MailReason = keyof typeof footers;
