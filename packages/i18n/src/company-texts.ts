import { isLanguage, languages } from "./languages.js";
import { isMessageKey, isNamespace, type MessageProblem, messageProblems } from "./message-rules.js";
import type { ValueType } from "./placeholders.js";

/** A company's own wording of one message in one language, as an administrator sends it. */
export interface CompanyText {
  language: string;
  namespace: string;
  key: string;
  text: string;
}

/** Why the company's text at `index` is refused, the field at fault named, and said for the administrator. */
export type CompanyTextProblem = {
  index: number;
  field: "language" | "namespace" | "key" | "text";
  message: string;
} & ({ reason: "unknown_language" | "unknown_namespace" | "unknown_key" | "duplicate" } | MessageProblem);

const valueNames: Record<ValueType, string> = { text: "a text", number: "a number", date: "a date" };

function describe(problem: MessageProblem): string {
  switch (problem.reason) {
    case "empty":
      return "must not be empty";
    case "too_long":
      return `must be at most ${problem.limit} characters`;
    case "syntax":
      return `is not an ICU message (${problem.detail})`;
    case "unknown_placeholder":
      return `uses {${problem.placeholder}}, which this message does not have`;
    case "placeholder_misused":
      return `uses {${problem.placeholder}} as what it is not: it is ${valueNames[problem.type]}`;
    case "missing_placeholder":
      return `must show {${problem.placeholder}} in every case`;
  }
}

/**
 * What is wrong with a company's texts (docs/decisions.md, "Languages"): each must be of a language
 * the suite speaks, name a message English has, and pass the message's rules (messageProblems);
 * a message has one text per language. No problem means the texts may be stored.
 */
export function companyTextProblems(texts: readonly CompanyText[]): CompanyTextProblem[] {
  const seen = new Set<string>();
  return texts.flatMap(({ language, namespace, key, text }, index): CompanyTextProblem[] => {
    if (!isLanguage(language))
      return [
        {
          index,
          field: "language",
          reason: "unknown_language",
          message: `must be one of ${languages.join(", ")}`,
        },
      ];
    if (!isNamespace(namespace))
      return [
        { index, field: "namespace", reason: "unknown_namespace", message: "is not a namespace of messages" },
      ];
    if (!isMessageKey(namespace, key))
      return [{ index, field: "key", reason: "unknown_key", message: `is not a message of ${namespace}` }];
    const id = JSON.stringify([language, namespace, key]);
    if (seen.has(id))
      return [{ index, field: "key", reason: "duplicate", message: "has a text in this language already" }];
    seen.add(id);
    return messageProblems(namespace, key, text).map((problem) => ({
      index,
      field: "text",
      message: describe(problem),
      ...problem,
    }));
  });
}
