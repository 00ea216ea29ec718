import { isLanguage, languages, type Namespace, sourceLanguage } from "@auth/i18n";
import type { CompanyText } from "@auth/proto/identity";
import { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import { defineRead } from "../endpoint/define.js";
import { type SuccessFields, success } from "../endpoint/responses.js";

/** The namespaces of the messages the login page shows: its own words, and the errors' (docs/decisions.md, "Languages"). */
const pageNamespaces = ["page", "errors"] as const satisfies readonly Namespace[];

const pageText = z.strictObject({
  language: z.enum(languages),
  namespace: z.enum(pageNamespaces),
  key: z.string().describe("The message's key in its namespace (otp.smsIntro, auth.otp.invalid)"),
  text: z.string().describe("The company's wording, an ICU message in place of the suite's in this language"),
});

const responses = success({
  company_name: z.string().describe("The company's name, shown where it has no logo, and as the logo's text"),
  logo_url: z.string().describe("https URL of the company's logo (PNG, SVG or JPEG); empty: none"),
  color: z
    .string()
    .describe(
      "The company's accent colour as #rrggbb, dark enough for white text on it (4.5:1); empty: the page's own",
    ),
  default_language: z
    .enum(languages)
    .describe("The page's language when the browser asks for none the suite speaks"),
  texts: z
    .array(pageText)
    .describe("The company's own texts of the page's messages and of the error messages, per language"),
});

type PageText = z.output<typeof pageText>;

const isPageText = (text: CompanyText): text is CompanyText & PageText =>
  isLanguage(text.language) && (pageNamespaces as readonly string[]).includes(text.namespace);

/**
 * Beyond the spec (docs/api-contract.md, "Brand"): the company's look and words from its policy, for
 * the login page to show on every step. None of it is a secret (docs/decisions.md, "Brand").
 */
export const brand = defineRead({
  operation: "brand",
  summary: "Get the company's name, logo, colour, default language and texts of the login page",
  responses,
  examples: {
    answers: [
      {
        company_name: "Acme",
        logo_url: "https://acme.example/logo.svg",
        color: "#1f5fbf",
        default_language: "de",
        texts: [{ language: "de", namespace: "page", key: "identify.title", text: "Bei Acme anmelden" }],
      },
    ],
  },
  // A changed brand shows on the page within five minutes.
  cacheControl: "public, max-age=300",
  handle,
});

async function handle(context: FlowContext): Promise<SuccessFields<typeof responses>> {
  const { name, policy } = context.company;
  return {
    company_name: name,
    logo_url: policy.brand?.logoUrl ?? "",
    color: policy.brand?.color ?? "",
    // identity answers one of the suite's languages, English where the company set none.
    default_language: isLanguage(policy.defaultLanguage) ? policy.defaultLanguage : sourceLanguage,
    texts: policy.texts.filter(isPageText),
  };
}
