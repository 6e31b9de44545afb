import { isPostgresUrl, type Config } from "./config";
import { ID_INSTANCES } from "./db";

function codeOf(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function postgresTarget(url: string): { host: string; database: string } {
  try {
    const parsed = new URL(url);
    return { host: `${parsed.hostname}:${parsed.port || "5432"}`, database: decodeURIComponent(parsed.pathname.slice(1)) || "postgres" };
  } catch {
    return { host: "?", database: "?" };
  }
}

/**
 * What went wrong at start, as one Chinese line saying what to do (like a configuration error), or null when the
 * error is not one an operator can fix by configuration — then its stack is worth printing.
 */
export function startupErrorMessage(error: unknown, config: Pick<Config, "DATABASE_URL" | "PORT" | "HOST">): string | null {
  const code = codeOf(error);
  const url = config.DATABASE_URL;
  if (code === "EADDRINUSE") return `启动失败：端口 ${config.PORT} 已被占用。请停止占用它的程序，或用 PORT 指定另一个端口。`;
  if (code === "INSTANCE_NUMBERS_TAKEN") return `启动失败：同一数据库上已有 ${ID_INSTANCES} 个实例在运行（实例编号已用完）。请停掉多余的实例，或等已崩溃实例的编号在 1 分钟后过期。`;
  if (code === "EADDRNOTAVAIL") return `启动失败：本机没有地址 ${config.HOST}。请把 HOST 改为本机的地址（或 0.0.0.0）。`;
  if (isPostgresUrl(url)) {
    const { host, database } = postgresTarget(url);
    switch (code) {
      case "ECONNREFUSED":
      case "ETIMEDOUT":
      case "EHOSTUNREACH":
      case "ENETUNREACH":
      case "57P03":
        return `启动失败：无法连接 PostgreSQL（${host}）。请确认数据库已启动、可从本机访问，且 DATABASE_URL 的主机和端口正确。`;
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return `启动失败：找不到 PostgreSQL 主机（${host}）。请检查 DATABASE_URL 中的主机名。`;
      case "3D000":
        return `启动失败：PostgreSQL 数据库“${database}”不存在。请先创建它（createdb ${database}），或改正 DATABASE_URL。`;
      case "28P01":
      case "28000":
        return `启动失败：PostgreSQL 拒绝登录（${host}）。请检查 DATABASE_URL 中的用户名和密码，以及 pg_hba.conf。`;
      case "25006":
        return `启动失败：PostgreSQL 数据库“${database}”只读（备库或 default_transaction_read_only）。请连接可写的主库。`;
      case "42501":
        return `启动失败：PostgreSQL 用户没有在数据库“${database}”中建表的权限。请授予权限（GRANT CREATE），或换用有权限的用户。`;
    }
    return null;
  }
  const path = url.replace(/^file:/, "");
  // SQLite's extended codes (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN_ISDIR…) count as their primary code.
  const primary = code?.match(/^SQLITE_(READONLY|CANTOPEN|NOTADB|CORRUPT|FULL)/)?.[0] ?? code;
  switch (primary) {
    case "ENOTDIR":
    case "EEXIST":
      return `启动失败：数据库路径 ${path} 中有一级不是目录。请把 DATABASE_URL 指向一个目录中的文件。`;
    case "EACCES":
    case "EPERM":
    case "EROFS":
    case "SQLITE_CANTOPEN":
      return `启动失败：无法在 ${path} 打开或创建数据库（目录不存在、不可写或只读）。请检查目录及其权限，或改 DATABASE_URL。`;
    case "SQLITE_READONLY":
      return `启动失败：数据库 ${path} 只读。请让运行本服务的用户可以写入该文件及其所在目录。`;
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `启动失败：${path} 不是可用的 SQLite 数据库。请检查 DATABASE_URL，或从备份恢复该文件。`;
    case "SQLITE_FULL":
    case "ENOSPC":
      return `启动失败：${path} 所在磁盘空间不足。请释放空间后再启动。`;
  }
  return null;
}
