/**
 * What the server's and the declarations' imports may be (decision 058), checked by `npm test` (scripts/test.sh):
 * no cycles, a database layer that knows no business module, migrations that carry their own SQL. Type-only imports
 * count: a cycle of types is a cycle of meaning, and the next change makes it one of code.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle makes what a module means depend on which of its files was imported first.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "db-knows-no-module",
      comment:
        "server/db is the storage layer every module stands on. The message catalogue is shared text, not a module; the seed is business data and lives beside the modules it seeds (server/modules/seed.ts, decision 062).",
      severity: "error",
      from: { path: "^server/db/" },
      to: { path: "^server/modules/", pathNot: "^server/modules/messages\\.ts$" },
    },
    {
      name: "migrations-carry-their-own-sql",
      comment: "A migration means the same thing in a year: it may use Kysely, the table writer and its sister files, never live code.",
      severity: "error",
      from: { path: "^server/db/migrations/" },
      to: { pathNot: ["^server/db/migrations/", "^server/db/tables\\.ts$", "^node_modules/kysely/"] },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^server/db/migrations/.*\\.test\\.ts$" },
  },
};
