import { createTheme, type MantineColorsTuple } from "@mantine/core";

function mix(hex: string, target: number, weight: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (value >> shift) & 255;
    return Math.round(c + (target - c) * weight)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/** Ten shades around the chosen colour, which sits at index 6 (Mantine's primary shade). */
export function paletteFrom(hex: string): MantineColorsTuple {
  const base = /^#[0-9a-f]{6}$/i.test(hex) ? hex.toLowerCase() : "#1890ff";
  return [
    mix(base, 255, 0.92),
    mix(base, 255, 0.8),
    mix(base, 255, 0.62),
    mix(base, 255, 0.45),
    mix(base, 255, 0.28),
    mix(base, 255, 0.12),
    base,
    mix(base, 0, 0.15),
    mix(base, 0, 0.3),
    mix(base, 0, 0.45),
  ];
}

export function canteenTheme(themeColor: string) {
  return createTheme({
    primaryColor: "brand",
    colors: { brand: paletteFrom(themeColor) },
    defaultRadius: "sm",
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif',
  });
}
