// E2E_PORT_BASE lets several runs share a machine (each gets its own servers and databases).
const base = Number(process.env.E2E_PORT_BASE ?? 3210);
/** `serve` is the same product started by `react-router-serve` (the playwright project of that name). */
export const E2E_PORTS = { main: base, captcha: base + 1, serve: base + 2 } as const;
export const ADMIN_INITIAL_PASSWORD = "E2e-Admin-First-1";

/** Accounts the e2e run creates in the default tenant (role 1 is the seeded `admin` role). */
export const e2eUsers = {
  operator: { userName: "operator", password: "Operator-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  lockme: { userName: "lock.me", password: "Lock-Me-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  noRoles: { userName: "no.roles", password: "No-Roles-Pass-2026", roleIds: [], pwdSecurityLevel: 2 },
  nojs: { userName: "no.script", password: "No-Script-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // The shell's journeys (e2e/shell-*.spec.ts); 501 clerk and 502 auditor are roles of e2e/support/shell-fixtures.ts.
  shellAdmin: { userName: "shell.admin", password: "Shell-Admin-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  shellSide: { userName: "shell.side", password: "Shell-Side-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  shellSide2: { userName: "shell.side2", password: "Shell-Side-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // e2e/shell-menus.spec.ts: every menu entry by mouse in each layout, the menu search, tags; 503 has the canteen alone.
  navTop: { userName: "nav.top", password: "Nav-Top-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  navSide: { userName: "nav.side", password: "Nav-Side-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  canteenOnly: { userName: "canteen.only", password: "Canteen-Only-2026", roleIds: [503], pwdSecurityLevel: 2 },
  settingsWide: { userName: "settings.wide", password: "Settings-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  settingsNarrow: { userName: "settings.narrow", password: "Settings-Pass-2026", roleIds: [501], pwdSecurityLevel: 2 },
  clerk: { userName: "clerk", password: "Clerk-Pass-2026", roleIds: [501], pwdSecurityLevel: 2 },
  auditor: { userName: "auditor", password: "Auditor-Pass-2026", roleIds: [502], pwdSecurityLevel: 2 },
  // e2e/security.spec.ts: one sends a sign-in ticket, the other is the signed-in user it must not displace.
  ticketSender: { userName: "ticket.sender", password: "Ticket-Sender-2026", roleIds: [1], pwdSecurityLevel: 2 },
  ticketVictim: { userName: "ticket.victim", password: "Ticket-Victim-2026", roleIds: [1], pwdSecurityLevel: 2 },
  alertWide: { userName: "alert.wide", password: "Alert-Pass-2026", roleIds: [911], pwdSecurityLevel: 2, tenantId: 901 },
  alertNarrow: { userName: "alert.narrow", password: "Alert-Pass-2026", roleIds: [912], pwdSecurityLevel: 2, tenantId: 902 },
  // The accessibility journeys (e2e/a11y.spec.ts) walk the admin's whole menu.
  a11y: { userName: "a11y.admin", password: "A11y-Admin-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  a11ySide: { userName: "a11y.side", password: "A11y-Side-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  keyboard: { userName: "keyboard.only", password: "Keyboard-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  canteen: { userName: "canteen.chef", password: "Canteen-Chef-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // e2e/zhhq-master.spec.ts: the warehouse keeper who sets up goods, suppliers and their prices.
  hqKeeper: { userName: "hq.keeper", password: "Hq-Keeper-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // e2e/zhhq-stock.spec.ts: the manager who approves the keeper's stock documents (the print's 审核 names them).
  hqManager: { userName: "hq.manager", password: "Hq-Manager-Pass-2026", roleIds: [1], pwdSecurityLevel: 2, realName: "仓库主管" },
  // e2e/sc.spec.ts: the accountant of 收支管理 (purchases, income, expenses, the margin).
  scAccountant: { userName: "sc.accountant", password: "Sc-Accountant-2026", roleIds: [1], pwdSecurityLevel: 2, realName: "收支会计" },
  // e2e/zhhq-dorm.spec.ts: the dormitory clerk who checks residents in and out and bills the month.
  dormClerk: { userName: "dorm.clerk", password: "Dorm-Clerk-Pass-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // e2e/zhct-ledger.spec.ts: the counter clerk who tops up and issues cards.
  cashier: { userName: "ledger.cashier", password: "Ledger-Cashier-2026", roleIds: [1], pwdSecurityLevel: 2 },
  // e2e/zhct-settle.spec.ts: grants and a locked month, in a tenant of its own (shell-fixtures settleTenant).
  settle: { userName: "settle.clerk", password: "Settle-Clerk-2026", roleIds: [913], pwdSecurityLevel: 2, tenantId: 903 },
  // e2e/zhct-points.spec.ts: pay types and points, in a tenant of its own (shell-fixtures pointsTenant).
  points: { userName: "points.clerk", password: "Points-Clerk-2026", roleIds: [917], pwdSecurityLevel: 2, tenantId: 907 },
  // e2e/zhct-orders.spec.ts: orders, cancel and a complaint's refund, in a tenant of its own (shell-fixtures ordersTenant).
  orders: { userName: "orders.clerk", password: "Orders-Clerk-2026", roleIds: [914], pwdSecurityLevel: 2, tenantId: 904 },
  // e2e/zhct-cashier.spec.ts: the counter clerk who charges diners and prints the day (shell-fixtures cashierTenant).
  counter: { userName: "counter.clerk", password: "Counter-Clerk-2026", roleIds: [915], pwdSecurityLevel: 2, tenantId: 905 },
  // e2e/zhct-tickets.spec.ts: one applies for a meal ticket, the other (named by the ticket setting) approves it.
  ticketClerk: { userName: "ticket.clerk", password: "Ticket-Clerk-2026", roleIds: [916], pwdSecurityLevel: 2, tenantId: 906, realName: "申请员" },
  ticketApprover: { userName: "ticket.approver", password: "Ticket-Approver-2026", roleIds: [916], pwdSecurityLevel: 2, tenantId: 906, realName: "审批经理" },
  // e2e/zhct-rooms.spec.ts: rooms reserved and plates bound and settled (shell-fixtures roomTenant).
  roomClerk: { userName: "room.clerk", password: "Room-Clerk-2026", roleIds: [920], pwdSecurityLevel: 2, tenantId: 910, realName: "包间管理员" },
  // e2e/zhct-defaults.spec.ts: default orders, leave and their generation (shell-fixtures defaultsTenant).
  dfltClerk: { userName: "dflt.clerk", password: "Dflt-Clerk-2026", roleIds: [919], pwdSecurityLevel: 2, tenantId: 909 },
  // e2e/zhct-bookings.spec.ts: booking periods, bookings and the booked meal's order (shell-fixtures bookingTenant).
  bookClerk: { userName: "book.clerk", password: "Book-Clerk-2026", roleIds: [918], pwdSecurityLevel: 2, tenantId: 908 },
  // e2e/zhct-surveys.spec.ts: recognitions marked and surveys answered, in a tenant of its own (shell-fixtures survTenant).
  survClerk: { userName: "surv.clerk", password: "Surv-Clerk-2026", roleIds: [921], pwdSecurityLevel: 2, tenantId: 911, realName: "调查员" },
  // e2e/report.spec.ts: reports over a day of orders and top-ups of its own (shell-fixtures reportTenant).
  reptClerk: { userName: "rept.clerk", password: "Rept-Clerk-2026", roleIds: [922], pwdSecurityLevel: 2, tenantId: 912, realName: "报表员" },
  // e2e/report-attendance.spec.ts: attendance reports in a tenant of their own (shell-fixtures attendanceTenant).
  attendClerk: { userName: "attend.clerk", password: "Attend-Clerk-2026", roleIds: [924], pwdSecurityLevel: 2, tenantId: 914, realName: "考勤报表员" },
  // e2e/report-settlement.spec.ts (shell-fixtures settleReportTenant).
  settleRptClerk: { userName: "settlerpt.clerk", password: "Settle-Rpt-2026", roleIds: [923], pwdSecurityLevel: 2, tenantId: 913, realName: "结算员" },
  // e2e/report-bank.spec.ts: a statement compared with the online payments of its own tenant (shell-fixtures bankTenant).
  bankClerk: { userName: "bank.clerk", password: "Bank-Clerk-2026", roleIds: [925], pwdSecurityLevel: 2, tenantId: 915, realName: "对账员" },
  // e2e/shown.spec.ts: the operation log, counts and wide tables of a tenant of its own (shell-fixtures shownTenant).
  shownClerk: { userName: "shown.clerk", password: "Shown-Clerk-2026", roleIds: [941], pwdSecurityLevel: 2, tenantId: 931, realName: "显示员" },
} as const;
