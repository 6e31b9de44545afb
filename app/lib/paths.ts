export const CHANGE_PASSWORD_PATH = "/admin/auth/user/modifyPasswd";
export const HOME_PATH = "/admin/dashboard";
