import { type MailMessage, type MessageWording, messageTranslator, renderMail } from "@auth/delivery";
import type { Brand } from "@auth/proto/identity";

/**
 * What each kind of link is (docs/api-contract.md, "Recovery" and "Changing the phone or the
 * e-mail"): its lifetime, the query parameter of the company's page that carries its token, and the
 * `mail` catalogue's words of its e-mail.
 */
export const linkKinds = {
  recovery: {
    lifetimeMs: 30 * 60_000,
    query: "token",
    subject: "recovery.subject",
    body: "recovery.body",
    action: "setPassword",
    reason: "recovery",
  },
  // Shorter than a recovery's: the user asked for it moments ago, signed in (docs/decisions.md,
  // "Changing an address").
  emailChange: {
    lifetimeMs: 15 * 60_000,
    query: "email_token",
    subject: "emailChange.subject",
    body: "emailChange.body",
    action: "confirmEmail",
    reason: "emailChange",
  },
} as const;

export type LinkKind = keyof typeof linkKinds;

export const linkLifetimeMs = linkKinds.recovery.lifetimeMs;

/** The link is the company's recovery page with the token in its query, under the kind's name. */
export function linkOf(kind: LinkKind, linkBase: string, token: string): string {
  const url = new URL(linkBase);
  url.searchParams.set(linkKinds[kind].query, token);
  return url.toString();
}

/** docs/api-contract.md, "Recovery": the link is the company's recovery page with the token in the query. */
export const recoveryLink = (linkBase: string, token: string) => linkOf("recovery", linkBase, token);

/**
 * The link's e-mail: the `mail` catalogue's subject and body of its kind (or the company's own) in
 * the request's language, else the company's (docs/decisions.md, "Languages"), in the layout of its
 * brand with the link as a button (docs/decisions.md, "Brand").
 */
export function linkMail(
  kind: LinkKind,
  companyId: string,
  to: string,
  company: { name: string; brand?: Brand | undefined },
  link: string,
  wording: MessageWording,
): MailMessage {
  const words = messageTranslator(wording);
  const { subject, body, action, reason, lifetimeMs } = linkKinds[kind];
  // The subject is given the body's values too: an older policy's subject template, which identity
  // answers as the subject's text, could use every placeholder of the body.
  const values = { company: company.name, link, minutes: lifetimeMs / 60_000 };
  return {
    companyId,
    to,
    ...renderMail(
      {
        companyName: company.name,
        brand: company.brand,
        subject: words.format("mail", subject, values),
        text: words.format("mail", body, values),
        action: { label: action, url: link },
        reason,
      },
      words,
    ),
  };
}

/** The recovery e-mail (linkMail). */
export const recoveryMail = (
  companyId: string,
  to: string,
  company: { name: string; brand?: Brand | undefined },
  link: string,
  wording: MessageWording,
) => linkMail("recovery", companyId, to, company, link, wording);
