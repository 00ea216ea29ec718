import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { collectProcessMetrics, metrics, registry, serveMetrics } from "./metrics.js";

const dashboard = JSON.parse(
  readFileSync(new URL("../../../infra/grafana/auth-suite-dashboard.json", import.meta.url), "utf8"),
) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };

// First in the file: no test before it has served or collected the process metrics.
describe("the default process metrics", () => {
  it("are collected once the process serves its metrics, not before: no event-loop monitor wakes a process no one scrapes", async () => {
    expect((await registry.getMetricsAsJSON()).map((metric) => metric.name)).not.toContain(
      "nodejs_eventloop_lag_p99_seconds",
    );
    const server = await serveMetrics("127.0.0.1", 0);
    try {
      const { port } = server.address() as AddressInfo;
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(text).toContain("process_resident_memory_bytes");
      expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    } finally {
      server.close();
    }
  });
});

describe("metrics", () => {
  it("are served in the Prometheus text format", async () => {
    collectProcessMetrics();
    metrics.otpsSent.inc({ purpose: "login" });
    const text = await registry.metrics();
    expect(text).toContain('auth_otps_sent_total{purpose="login"} 1');
    expect(text).toContain("process_resident_memory_bytes");
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
