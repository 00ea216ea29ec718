import type { CompanyText } from "@auth/i18n/company-texts.js";
import type { PageConfig } from "../shared/page-config.js";
import { authPath } from "./api.js";
import { element } from "./view.js";

/** The company's look and words, as GET auth/brand answers them (docs/api-contract.md, "Brand"). */
export interface Brand {
  company_name: string;
  logo_url: string;
  color: string;
  /** The company's default language, which the page speaks when the browser asks for none of its own. */
  default_language?: string;
  /** The company's own texts of the `page` and `errors` messages, checked by identity when they were stored. */
  texts?: CompanyText[];
}

const isCompanyText = (value: unknown): value is CompanyText =>
  typeof value === "object" &&
  value !== null &&
  ["language", "namespace", "key", "text"].every(
    (field) => typeof (value as Record<string, unknown>)[field] === "string",
  );

/** The company's look; undefined when it cannot be had, and the page shows none. */
export async function loadBrand(config: PageConfig): Promise<Brand | undefined> {
  try {
    const response = await fetch(authPath(config, "brand"), { headers: { "x-api-key": config.apiKey } });
    const answer = (await response.json()) as Partial<Record<keyof Brand, unknown>> & { status?: string };
    if (answer.status !== "success" || typeof answer.company_name !== "string") return undefined;
    return {
      company_name: answer.company_name,
      logo_url: typeof answer.logo_url === "string" ? answer.logo_url : "",
      color: typeof answer.color === "string" ? answer.color : "",
      ...(typeof answer.default_language === "string" ? { default_language: answer.default_language } : {}),
      texts: Array.isArray(answer.texts) ? answer.texts.filter(isCompanyText) : [],
    };
  } catch {
    return undefined;
  }
}

/** identity keeps a colour as #rrggbb (docs/decisions.md, "Brand"); anything else is not applied. */
const colour = /^#[0-9a-fA-F]{6}$/;

/**
 * Shows the company's look on every step (docs/decisions.md, "Reference login page"): its logo, or
 * its name, in the header atop the card, and its colour as the accent of buttons, links and the
 * focus ring. The colour is set through the CSSOM, which a content security policy without
 * 'unsafe-inline' allows. A logo that does not load gives way to the name.
 */
export function showBrand(brand: Brand): void {
  const header = document.querySelector<HTMLElement>("header.brand");
  if (!header) return;
  const name = () => element("p", { class: "company-name" }, brand.company_name);
  if (brand.logo_url) {
    const logo = element("img", { class: "logo", src: brand.logo_url, alt: brand.company_name });
    logo.addEventListener("error", () => logo.replaceWith(name()));
    header.replaceChildren(logo);
  } else {
    header.replaceChildren(name());
  }
  header.hidden = false;
  if (colour.test(brand.color)) document.documentElement.style.setProperty("--accent", brand.color);
}
