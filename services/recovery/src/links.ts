import { type MailMessage, renderMail } from "@auth/delivery";
import type { Brand } from "@auth/proto/identity";
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

/**
 * The recovery e-mail, in the company's wording when it has one, in the layout of its brand with
 * the link as a button (docs/decisions.md, "Brand").
 */
export function recoveryMail(
  companyId: string,
  to: string,
  company: { name: string; brand?: Brand | undefined },
  link: string,
  settings?: MailSettings,
): MailMessage {
  const values = { company: company.name, link, minutes: String(linkLifetimeMs / 60_000) };
  return {
    companyId,
    to,
    ...renderMail({
      companyName: company.name,
      brand: company.brand,
      subject: fill(settings?.subjectTemplate ?? defaultSubject, values),
      text: fill(settings?.bodyTemplate ?? defaultBody, values),
      action: { label: "setPassword", url: link },
      reason: "recovery",
    }),
  };
}
