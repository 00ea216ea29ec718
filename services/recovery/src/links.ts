import type { MailMessage } from "./mail/sender.js";

export const linkLifetimeMs = 30 * 60_000;

/** DESIGN.md: the link is the company's recovery page with the token in the query. */
export function recoveryLink(linkBase: string, token: string): string {
  const url = new URL(linkBase);
  url.searchParams.set("token", token);
  return url.toString();
}

export function recoveryMail(companyId: string, to: string, companyName: string, link: string): MailMessage {
  return {
    companyId,
    to,
    subject: `Recover access to your ${companyName} account`,
    text: [
      `Someone asked to recover access to your ${companyName} account.`,
      `To set a new password, open this link within ${linkLifetimeMs / 60_000} minutes (it works once):`,
      "",
      link,
      "",
      "If you did not ask for this, ignore this message: nothing changes.",
    ].join("\n"),
  };
}
