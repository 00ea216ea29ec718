import { describe, expect, it } from "vitest";
import { catalogues } from "./catalogues.js";
import { deviceName as named } from "./device-names.js";
import { translator } from "./translator.js";

const english = translator(catalogues.en);
const deviceName = (userAgent: string) => named(userAgent, english);

describe("a session's device, named from its user agent", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox on Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Microsoft Edge on Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
  ])("names the browser and the system: %s is “%s”", (userAgent, name) => {
    expect(deviceName(userAgent)).toBe(name);
  });

  it.each(["curl/8.5.0", "Phone-Browser/1.0", "", "   "])(
    "calls a client that names no browser or system an unknown device: “%s”",
    (userAgent) => {
      expect(deviceName(userAgent)).toBe("Unknown device");
    },
  );

  it("names an app by its product, and a client by what it knows of it", () => {
    expect(deviceName("MyApp/1.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)")).toBe("MyApp on iOS");
    expect(deviceName("Mozilla/5.0 (compatible; Googlebot/2.1)")).toBe("Googlebot");
  });

  it("names the device in the translator's language", () => {
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
    expect(named(firefox, translator(catalogues.de))).toBe("Firefox unter Linux");
    expect(named(firefox, translator(catalogues.fr))).toBe("Firefox sous Linux");
    expect(named("curl/8.5.0", translator(catalogues.de))).toBe("Unbekanntes Gerät");
  });
});
