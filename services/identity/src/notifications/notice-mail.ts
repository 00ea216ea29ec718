import { renderMail } from "@auth/delivery";
import type { Translator } from "@auth/i18n";
import type { Brand } from "@auth/proto/identity";
import type { Wording } from "./wording.js";

/**
 * A notice as an e-mail: the wording's subject and body in the layout of the company's brand
 * (docs/decisions.md, "Brand"), the layout's words in the wording's language, its footer saying the
 * e-mail concerns the account's security.
 */
export function noticeMail(
  company: { name: string; brand?: Brand | undefined },
  wording: Wording,
  words: Translator,
) {
  return renderMail(
    {
      companyName: company.name,
      brand: company.brand,
      subject: wording.subject,
      text: wording.body,
      reason: "notice",
    },
    words,
  );
}
