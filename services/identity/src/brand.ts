import { z } from "zod";

/** WCAG 2.2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast of white text on the colour, 1 to 21. */
export const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

/**
 * A company's look (docs/decisions.md, "Brand"): white text goes on its colour, so a colour that
 * leaves white text under 4.5:1 (WCAG 2.2, 1.4.3) is refused.
 */
export const brandInput = z.object({
  logoUrl: z.union([z.literal(""), z.url({ protocol: /^https$/, error: "must be an https URL" }).max(2_000)]),
  color: z.union([
    z.literal(""),
    z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb")
      .refine(
        (hex) => contrastWithWhite(hex) >= 4.5,
        "must be dark enough for white text on it (contrast 4.5:1)",
      )
      .transform((hex) => hex.toLowerCase()),
  ]),
});
