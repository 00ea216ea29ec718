import { AuthError } from "@auth/errors";
import { createLogger } from "@auth/runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CompaniesWithDisclaimers } from "./companies-with-disclaimers.js";

const withTerms = "0b7c4c52-5a4e-4b8e-9d43-6f1f7b0a3c11";
const withNone = "5d0e8a3f-2c1b-4f6a-8e7d-9a0b1c2d3e4f";

/** A disclaimer service that answers the list, or fails, as the test says. */
function disclaimerService(answer: () => string[]) {
  const service = {
    reads: 0,
    async listCompaniesWithDisclaimers() {
      service.reads += 1;
      return { companyIds: answer() };
    },
  };
  return service;
}

const silent = createLogger("companies-with-disclaimers-test", "silent");

describe("the companies with disclaimers, which logins go by while the disclaimer service is down", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("knows no company to have none before the first list", () => {
    const companies = new CompaniesWithDisclaimers(
      disclaimerService(() => []),
      1_000,
      silent,
    );
    expect(companies.knownToHaveNone(withNone)).toBe(false);
  });

  it("knows a company the service did not list to have none, and never one it listed", async () => {
    const companies = new CompaniesWithDisclaimers(
      disclaimerService(() => [withTerms]),
      1_000,
      silent,
    );
    await companies.refresh();
    expect(companies.knownToHaveNone(withNone)).toBe(true);
    expect(companies.knownToHaveNone(withTerms)).toBe(false);
  });

  it("keeps the last list while the service cannot be reached (service.unavailable)", async () => {
    let down = false;
    const companies = new CompaniesWithDisclaimers(
      disclaimerService(() => {
        if (down) throw new AuthError("service.unavailable");
        return [withTerms];
      }),
      1_000,
      silent,
    );
    await companies.refresh();
    down = true;
    await companies.refresh();
    expect(companies.knownToHaveNone(withNone)).toBe(true);
    expect(companies.knownToHaveNone(withTerms)).toBe(false);
  });

  it("forgets the list when the service answers with another error: it is up and may have changed", async () => {
    let refusing = false;
    const companies = new CompaniesWithDisclaimers(
      disclaimerService(() => {
        if (refusing) throw new AuthError("internal.error");
        return [withTerms];
      }),
      1_000,
      silent,
    );
    await companies.refresh();
    refusing = true;
    await companies.refresh();
    expect(companies.knownToHaveNone(withNone)).toBe(false);
  });

  it("reads the list at start, then once every period, until stopped", async () => {
    vi.useFakeTimers();
    const listed = [withTerms];
    const service = disclaimerService(() => listed);
    const companies = new CompaniesWithDisclaimers(service, 5_000, silent);
    companies.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(service.reads).toBe(1);
    listed.push(withNone);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(service.reads).toBe(2);
    expect(companies.knownToHaveNone(withNone)).toBe(false);
    companies.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(service.reads).toBe(2);
  });

  it("says a company has none, so that a login asks nothing, only while the list is younger than the period", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const companies = new CompaniesWithDisclaimers(
      disclaimerService(() => [withTerms]),
      1_000,
      silent,
    );
    expect(companies.hasNone(withNone)).toBe(false);
    await companies.refresh();
    expect(companies.hasNone(withNone)).toBe(true);
    expect(companies.hasNone(withTerms)).toBe(false);
    vi.setSystemTime(Date.now() + 1_000);
    expect(companies.hasNone(withNone)).toBe(false);
    // What a login goes by while the service cannot be reached stands, however old.
    expect(companies.knownToHaveNone(withNone)).toBe(true);
  });
});
