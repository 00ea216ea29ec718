import { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import { defineRead } from "../endpoint/define.js";
import { type SuccessFields, success } from "../endpoint/responses.js";

const responses = success({
  company_name: z.string().describe("The company's name, shown where it has no logo, and as the logo's text"),
  logo_url: z.string().describe("https URL of the company's logo (PNG, SVG or JPEG); empty: none"),
  color: z
    .string()
    .describe(
      "The company's accent colour as #rrggbb, dark enough for white text on it (4.5:1); empty: the page's own",
    ),
});

/**
 * Beyond the spec (docs/api-contract.md, "Brand"): the company's look from its policy, for the
 * login page to show on every step. None of it is a secret (docs/decisions.md, "Brand").
 */
export const brand = defineRead({
  operation: "brand",
  summary: "Get the company's name, logo and colour",
  responses,
  examples: {
    answers: [{ company_name: "Acme", logo_url: "https://acme.example/logo.svg", color: "#1f5fbf" }],
  },
  // A changed brand shows on the page within five minutes.
  cacheControl: "public, max-age=300",
  handle,
});

async function handle(context: FlowContext): Promise<SuccessFields<typeof responses>> {
  const { name, policy } = context.company;
  return { company_name: name, logo_url: policy.brand?.logoUrl ?? "", color: policy.brand?.color ?? "" };
}
