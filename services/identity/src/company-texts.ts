import { companyTextProblems } from "@auth/i18n";
import { z } from "zod";

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
