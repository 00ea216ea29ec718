import { renderMail } from "@auth/delivery";
import type { Brand } from "@auth/proto/identity";
import type { Wording } from "./templates.js";

/**
 * A notice as an e-mail: the wording's subject and body in the layout of the company's brand
 * (docs/decisions.md, "Brand"), its footer saying the e-mail concerns the account's security.
 */
export function noticeMail(company: { name: string; brand?: Brand | undefined }, wording: Wording) {
  return renderMail({
    companyName: company.name,
    brand: company.brand,
    subject: wording.subject,
    text: wording.body,
    reason: "notice",
  });
}
