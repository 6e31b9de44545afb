import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../server/config";

describe("configuration", () => {
  test("the timed jobs run unless CANTEEN_JOBS turns them off", () => {
    expect(loadConfig({}).CANTEEN_JOBS).toBe(true);
    expect(loadConfig({ CANTEEN_JOBS: "off" }).CANTEEN_JOBS).toBe(false);
    expect(loadConfig({ CANTEEN_JOBS: "on" }).CANTEEN_JOBS).toBe(true);
  });

  test("a value that is neither on nor off stops the start with the variable named", () => {
    expect(() => loadConfig({ CANTEEN_JOBS: "sometimes" })).toThrow(ConfigError);
    expect(() => loadConfig({ CANTEEN_JOBS: "sometimes" })).toThrow(/^配置错误：CANTEEN_JOBS /);
  });
});
