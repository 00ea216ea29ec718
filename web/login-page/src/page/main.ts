import { type PageConfig, pageRoutes } from "../shared/page-config.js";
import { loadBrand, showBrand } from "./brand.js";
import { Flow } from "./flow.js";
import { finishOAuth } from "./oauth.js";
import { startPageLanguage } from "./page-language.js";
import { checkRecoveryLink } from "./steps/recovery-link.js";
import { spokenLanguage, text } from "./words.js";

async function loadConfig(): Promise<PageConfig> {
  const response = await fetch("/config.json");
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return (await response.json()) as PageConfig;
}

/** Tells that the page could not start: in its language, or in index.html's words before it has one. */
function showStartFailure(): void {
  const before = document.querySelector<HTMLTemplateElement>("template#start-failed")?.content;
  document
    .querySelector("main")
    ?.replaceChildren(spokenLanguage() ? text("document.startFailed") : (before?.cloneNode(true) ?? ""));
}

try {
  const config = await loadConfig();
  // Before the first step: the company's default language and own texts decide the page's words.
  const brand = await loadBrand(config);
  await startPageLanguage(brand);
  if (brand) showBrand(brand);
  const flow = new Flow(config);
  switch (location.pathname) {
    case pageRoutes.recoveryLink:
      await checkRecoveryLink(flow);
      break;
    case pageRoutes.oauthCallback:
      await finishOAuth(flow);
      break;
    default:
      flow.restart();
  }
} catch {
  showStartFailure();
}
