import { readFileSync } from "node:fs";
import type { Translator } from "@auth/i18n";
import type { Brand } from "@auth/proto/identity";
import escapeHtml from "escape-html";
import Mustache from "mustache";
import type { MailMessage } from "./mail-sender.js";
import { actionLabels, footers, type MailAction, type MailReason } from "./mail-texts.js";

export interface MailContent {
  companyName: string;
  /** The company's look; its colour and logo default when empty (docs/decisions.md, "Brand"). */
  brand: Brand | undefined;
  /** The e-mail's subject, and the HTML's heading. */
  subject: string;
  /** The text part as it is sent; the HTML shows its paragraphs, which blank lines separate. */
  text: string;
  /** A link the text holds, which the HTML shows as a button too. */
  action?: { label: MailAction; url: string };
  reason: MailReason;
}

const defaultColor = "#1f5fbf";

// Written by the build (scripts/compile-mail-layout.mjs) into dist/, next to this module; the path
// goes through dist/ so that the package's own tests, run from src/, find it as well.
const layout = readFileSync(new URL("../dist/mail-layout.html", import.meta.url), "utf8");

// Identity checks the brand as the company's policy is written (docs/decisions.md, "Brand"); both
// are checked again here because escaping keeps a value inside its attribute, not a colour from
// being other CSS or a URL from being another scheme.
const colorOf = (brand: Brand | undefined) =>
  brand && /^#[0-9a-fA-F]{6}$/.test(brand.color) ? brand.color : defaultColor;
const logoOf = (brand: Brand | undefined) => (brand?.logoUrl.startsWith("https://") ? brand.logoUrl : "");

const paragraphsOf = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

const linesOf = (paragraph: string) => ({
  lines: paragraph.split("\n").map((text, index) => ({ text, first: index === 0 })),
});

/**
 * Where the button goes: in place of the paragraph that is the link alone, else after the first
 * paragraph that holds it (a company's own wording may put it inside a sentence), else at the end.
 */
function aroundAction(paragraphs: string[], url: string | undefined) {
  const at = url === undefined ? -1 : paragraphs.findIndex((paragraph) => paragraph.includes(url));
  if (at === -1) return { before: paragraphs, after: [] };
  const end = paragraphs[at] === url ? at : at + 1;
  return { before: paragraphs.slice(0, end), after: paragraphs.slice(at + 1) };
}

/**
 * The e-mail in the one layout, HTML and text, the layout's own words in the language of `words`
 * (the translator the subject and text were worded with). Every value is HTML-escaped as it is
 * filled in, with escape-html rather than Mustache's own escape, which also writes / and = as
 * entities: a link then stands in the HTML as it is in the text.
 */
export function renderMail(
  content: MailContent,
  words: Translator,
): Pick<MailMessage, "subject" | "text" | "html"> {
  const paragraphs = paragraphsOf(content.text);
  const { before, after } = aroundAction(paragraphs, content.action?.url);
  const html = Mustache.render(
    layout,
    {
      lang: words.language,
      heading: content.subject,
      preview: paragraphs[0]?.replace(/\s+/g, " ") ?? "",
      company: content.companyName,
      color: colorOf(content.brand),
      logoUrl: logoOf(content.brand),
      before: before.map(linesOf),
      action: content.action && {
        label: words.format("mail", actionLabels[content.action.label]),
        url: content.action.url,
      },
      hint: words.format("mail", "layout.linkHint"),
      after: after.map(linesOf),
      footer: words.format("mail", footers[content.reason], { company: content.companyName }),
    },
    {},
    { escape: escapeHtml },
  );
  return { subject: content.subject, text: content.text, html };
}
