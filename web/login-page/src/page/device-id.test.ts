// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from "vitest";
import { deviceId } from "./device-id.js";

describe('the browser\'s device id (X-Device-Id, docs/api-contract.md "Known devices")', () => {
  beforeEach(() => localStorage.clear());

  it("is 128 random bits in base64url, of the shape the gateway takes", () => {
    expect(deviceId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("is made once and kept: the same on every call and page load", () => {
    const first = deviceId();
    expect(deviceId()).toBe(first);
    expect(localStorage.getItem("auth.device-id")).toBe(first);
  });

  it("differs between browsers (storages)", () => {
    const first = deviceId();
    localStorage.clear();
    expect(deviceId()).not.toBe(first);
  });

  it("replaces a kept value of another shape, and works without storage", () => {
    localStorage.setItem("auth.device-id", "not one of ours");
    expect(deviceId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(deviceId(null)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(deviceId(null)).not.toBe(deviceId(null));
  });
});
