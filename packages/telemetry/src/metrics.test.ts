import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { metrics, registry } from "./metrics.js";

const dashboard = JSON.parse(
  readFileSync(new URL("../../../infra/grafana/auth-suite-dashboard.json", import.meta.url), "utf8"),
) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };

describe("metrics", () => {
  it("are served in the Prometheus text format", async () => {
    metrics.otpsSent.inc({ purpose: "login" });
    const text = await registry.metrics();
    expect(text).toContain('auth_otps_sent_total{purpose="login"} 1');
    expect(text).toContain("process_resident_memory_bytes");
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
  });

  it("include every series the Grafana dashboard plots", async () => {
    const known = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    const names = (expr: string) =>
      [...expr.matchAll(/\b((?:auth|process|nodejs)_[a-z0-9_]+?)(?:_bucket)?\b/g)].map((m) => m[1] ?? "");
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        for (const name of names(target.expr)) expect(known, `${panel.title}: ${name}`).toContain(name);
      }
    }
  });
});
