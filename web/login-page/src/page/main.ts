import { type PageConfig, pageRoutes } from "../shared/page-config.js";
import { loadBrand, showBrand } from "./brand.js";
import { Flow } from "./flow.js";
import { finishOAuth } from "./oauth.js";
import { checkRecoveryLink } from "./steps/recovery-link.js";
import { texts } from "./texts.js";

async function loadConfig(): Promise<PageConfig> {
  const response = await fetch("/config.json");
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return (await response.json()) as PageConfig;
}

try {
  const config = await loadConfig();
  // Beside the first step, not before it: a brand that is slow or missing holds nothing up.
  void loadBrand(config).then((brand) => brand && showBrand(brand));
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
  document.querySelector("main")?.replaceChildren(texts.page.couldNotStart);
}
