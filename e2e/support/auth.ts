import { expect, type Page } from "@playwright/test";

export async function signIn(page: Page, userName: string, password: string) {
  await page.getByLabel("用户名").fill(userName);
  await page.getByLabel("密码", { exact: true }).fill(password);
  await page.getByRole("button", { name: "登录" }).click();
}

export async function signInFresh(page: Page, userName: string, password: string, path = "/login") {
  await page.goto(path);
  await signIn(page, userName, password);
  await expect(page).not.toHaveURL(/\/login/);
}
