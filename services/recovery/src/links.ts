import type { MailMessage } from "@auth/delivery";
import type { MailSettings } from "@auth/proto/recovery";

export const linkLifetimeMs = 30 * 60_000;

const defaultSubject = "Recover access to your {company} account";
const defaultBody = [
  "Someone asked to recover access to your {company} account.",
  "To set a new password, open this link within {minutes} minutes (it works once):",
  "",
  "{link}",
  "",
  "If you did not ask for this, ignore this message: nothing changes.",
].join("\n");

/** docs/api-contract.md, "Recovery": the link is the company's recovery page with the token in the query. */
export function recoveryLink(linkBase: string, token: string): string {
  const url = new URL(linkBase);
  url.searchParams.set("token", token);
  return url.toString();
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(
    /\{(company|link|minutes)\}/g,
    (placeholder, name: string) => values[name] ?? placeholder,
  );
}

/** The recovery e-mail, in the company's wording when it has one. */
export function recoveryMail(
  companyId: string,
  to: string,
  companyName: string,
  link: string,
  settings?: MailSettings,
): MailMessage {
  const values = { company: companyName, link, minutes: String(linkLifetimeMs / 60_000) };
  return {
    companyId,
    to,
    subject: fill(settings?.subjectTemplate ?? defaultSubject, values),
    text: fill(settings?.bodyTemplate ?? defaultBody, values),
  };
}
