import { companyTextProblems } from "@auth/i18n";
import type { CompanyPolicy, CompanyText } from "@auth/proto/identity";
import { z } from "zod";
import { singleTemplateTexts } from "./single-templates.js";

/**
 * A company's own texts (CompanyPolicy.texts), refused by @auth/i18n's rules, each problem at the
 * text's index and field (docs/decisions.md, "Languages").
 */
export const companyTextsInput = z
  .array(
    z.object({
      language: z.string().max(35),
      namespace: z.string().max(50),
      key: z.string().max(200),
      text: z.string().max(5_000),
    }),
  )
  .max(1_000)
  .default([])
  .superRefine((texts, context) => {
    for (const problem of companyTextProblems(texts)) {
      context.addIssue({ code: "custom", path: [problem.index, problem.field], message: problem.message });
    }
  });

const messageOf = (text: CompanyText) => JSON.stringify([text.language, text.namespace, text.key]);

/**
 * A company's texts as the services word their messages with (docs/decisions.md, "Languages"): its
 * own, and its single templates as texts of its default language where it has no text of that
 * message in that language.
 */
export function companyTextsOf(policy: CompanyPolicy): CompanyText[] {
  const own = new Set(policy.texts.map(messageOf));
  return [...policy.texts, ...singleTemplateTexts(policy).filter((text) => !own.has(messageOf(text)))];
}
