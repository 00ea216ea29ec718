import { describe, expect, it } from "vitest";
import { allowedRangesOf, webhookUrlProblem } from "./url-rules.js";

const none = allowedRangesOf([]);

describe("webhook URL rules", () => {
  it("accept an https URL of a public host name or address", () => {
    expect(webhookUrlProblem("https://hooks.example.com/in?x=1", none)).toBeUndefined();
    expect(webhookUrlProblem("https://93.184.216.34:8443/in", none)).toBeUndefined();
    expect(webhookUrlProblem("https://[2001:4860:4860::8888]/in", none)).toBeUndefined();
  });

  it("refuse anything but https", () => {
    for (const url of ["http://hooks.example.com/", "ftp://hooks.example.com/", "hooks.example.com", ""]) {
      expect(webhookUrlProblem(url, none)).toBe("must be an https URL");
    }
  });

  it("refuse a user name or password in the URL", () => {
    expect(webhookUrlProblem("https://user@hooks.example.com/", none)).toMatch(/user name or password/);
    expect(webhookUrlProblem("https://user:secret@hooks.example.com/", none)).toMatch(
      /user name or password/,
    );
  });

  it("refuse an IP literal in a loopback, private, link-local, unique-local or other non-public range", () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://192.168.0.1/",
      "https://172.16.0.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:127.0.0.1]/",
      // The URL parser reads other spellings of an IPv4 address as the address itself.
      "https://0x7f.1/",
      "https://2130706433/",
    ]) {
      expect(webhookUrlProblem(url, none), url).toMatch(/not public/);
    }
  });

  it("accept a non-public address WEBHOOK_ALLOWED_CIDRS allows, and only that", () => {
    const allowed = allowedRangesOf(["10.0.0.0/8", "127.0.0.1", "fd00::/8"]);
    expect(webhookUrlProblem("https://10.20.30.40/", allowed)).toBeUndefined();
    expect(webhookUrlProblem("https://127.0.0.1:8443/", allowed)).toBeUndefined();
    expect(webhookUrlProblem("https://[fd00::1]/", allowed)).toBeUndefined();
    expect(webhookUrlProblem("https://127.0.0.2/", allowed)).toMatch(/not public/);
    expect(webhookUrlProblem("https://192.168.0.1/", allowed)).toMatch(/not public/);
  });

  it("leave a host name to the connection, which checks the address it resolves to", () => {
    expect(webhookUrlProblem("https://localhost/", none)).toBeUndefined();
  });
});

describe("WEBHOOK_ALLOWED_CIDRS", () => {
  it("refuses an entry that is neither a CIDR nor an address, naming it", () => {
    expect(() => allowedRangesOf(["10.0.0.0/8", "10.0.0.0/33"])).toThrow(/"10.0.0.0\/33"/);
    expect(() => allowedRangesOf(["intranet"])).toThrow(/"intranet"/);
  });
});
