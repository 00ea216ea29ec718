import { type PageConfig, pageRoutes } from "../shared/page-config.js";
import { Flow } from "./flow.js";
import { finishOAuth } from "./oauth.js";
import { checkRecoveryLink } from "./steps/recovery-link.js";

async function loadConfig(): Promise<PageConfig> {
  const response = await fetch("/config.json");
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return (await response.json()) as PageConfig;
}

try {
  const flow = new Flow(await loadConfig());
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
  document.querySelector("main")?.replaceChildren("The sign-in page could not start. Please reload it.");
}
