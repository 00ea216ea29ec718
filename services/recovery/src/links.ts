import { type MailMessage, type MessageWording, messageTranslator, renderMail } from "@auth/delivery";
import type { Brand } from "@auth/proto/identity";

export const linkLifetimeMs = 30 * 60_000;

/** docs/api-contract.md, "Recovery": the link is the company's recovery page with the token in the query. */
export function recoveryLink(linkBase: string, token: string): string {
  const url = new URL(linkBase);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * The recovery e-mail: the `mail` catalogue's subject and body (or the company's own) in the
 * request's language, else the company's (docs/decisions.md, "Languages"), in the layout of its
 * brand with the link as a button (docs/decisions.md, "Brand").
 */
export function recoveryMail(
  companyId: string,
  to: string,
  company: { name: string; brand?: Brand | undefined },
  link: string,
  wording: MessageWording,
): MailMessage {
  const words = messageTranslator(wording);
  // The subject is given the body's values too: an older policy's subject template, which identity
  // answers as the subject's text, could use every placeholder of the body.
  const values = { company: company.name, link, minutes: linkLifetimeMs / 60_000 };
  return {
    companyId,
    to,
    ...renderMail(
      {
        companyName: company.name,
        brand: company.brand,
        subject: words.format("mail", "recovery.subject", values),
        text: words.format("mail", "recovery.body", values),
        action: { label: "setPassword", url: link },
        reason: "recovery",
      },
      words,
    ),
  };
}
