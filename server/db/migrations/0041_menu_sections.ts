import { sql, type Kysely } from "kysely";

/**
 * Issue 38 (decision 053): a long module's pages move into sections (目录 entries under the module's group), so a
 * dropdown of 69 pages becomes labelled groups an operator can scan and reach. The seed writes new databases so;
 * this moves the pages of databases seeded before, matched by their menu path. A page moves only while it still sits
 * directly under its group (one an admin moved, or a page added by hand, stays where it is), and every role holding
 * a page of a section is given the section (and the group), so `buildTree` still puts the page under its folders.
 * Run twice it changes nothing. The sections and ids are written out here, as the seed made them on that day, not
 * read from the live declarations.
 */
const GROUPS: Array<{ path: string; sections: Array<[string, string[]]> }> = [
  {
    path: "/admin/sys",
    sections: [
      ["系统设置", ["tenant", "subsystem", "menu", "parameterconfig", "dict", "dictitem", "holiday", "announcement", "imageobj", "operationlog"]],
      ["设备", ["device", "appversion", "modelversion", "exceptioninfo", "printdevice", "devicedetectconfig", "iccard"]],
      ["商户", ["merchant", "merchantconfig", "merchantorg"]],
    ],
  },
  {
    path: "/zhct",
    sections: [
      ["基础资料", ["food", "foodtype", "bowls", "foodnutrition", "foodmenubowls", "devicefood", "mealtimes", "imagelibrary"]],
      ["菜单", ["foodmenu", "foodmenuitem", "foodmenutype", "foodmenuTemplate", "foodmenutypeTemplate", "orderingfood"]],
      ["人员与账户", ["userinfo", "useraccount", "useraccountcharge", "useraccountledger", "usericcard", "autochargesetting", "autochargerun", "autochargegrant", "useraccountmonthsettle", "userintegralaccount", "useraccountintegraldetail", "userinfodept", "useraccounttable", "userplate"]],
      ["订单与收银", ["cashier", "cashierprint", "mealorder", "mealorderitem", "cashiermealorder", "mealordercomplaints", "mealrecovery", "mealticket", "mealticketuse", "chargedailyreport", "imagedetectlog", "imagedetectfood", "mealorderimagedetail"]],
      ["预约与配送", ["appointmentperiod", "appointmentdetail", "appointmentdetailfororder", "orderingplan", "userorderdefault", "userorderdefaultleave", "userorderdefaultgenerate", "userorderdefaultgeneratedetail", "userorderdefaultpc", "room", "roomreservation", "deliverypoint", "deliverytime", "mealorderdelivery"]],
      ["满意度与通知", ["satisfactionsurve", "satisfactionsurvequestion", "satisfactionsurveoption", "satisfactionsurveanswer", "satisfactionsurveansweritem", "satisfactionsurvestatics", "userinfosendmessage"]],
      ["设置", ["paytype", "paylimitconfig", "onlinepayrule", "merchantdivide", "integralstrategy", "mealticketsetting"]],
    ],
  },
  {
    path: "/report",
    sections: [
      ["订单与菜品", ["dailyordersummary", "dailyorderdetail", "foodcount", "userfood", "canteencounts", "pointsorderstats"]],
      ["就餐与预约", ["personaldining", "deptdining", "deptbooking", "cardswipe", "noswipe", "deliverycount"]],
      ["账户与充值", ["userconsumption", "personalledger", "chargedailyreport", "accounttypedaily", "chargemachine", "bankreconcile"]],
      ["结算与补贴", ["monthlysettlementuser", "monthlysettlementmerchant", "teachersubsidy", "staffpointsmonthly", "mealticketsummary", "mealticketdetail"]],
    ],
  },
];

/** The seed's stable menu id (FNV-1a of a key, past 1,000,000), as it was when this migration was written. */
function stableId(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1_000_000 + hash;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  let changed = false;
  for (const group of GROUPS) {
    const groupRow = await db
      .selectFrom("menu")
      .select(["id", "subsystem_id"])
      .where("menu_path", "=", group.path)
      .where("menu_type", "=", "path")
      .where("parent_id", "is", null)
      .orderBy("id")
      .executeTakeFirst();
    // A new database: the seed, which runs after the migrations, writes the sections itself.
    if (!groupRow) continue;
    const groupId = Number(groupRow.id);
    for (const [sectionIndex, [title, screens]] of group.sections.entries()) {
      const sectionId = stableId(`section:${group.path}:${title}`);
      const exists = await db.selectFrom("menu").select("id").where("id", "=", sectionId).executeTakeFirst();
      if (!exists) {
        await db
          .insertInto("menu")
          .values({
            id: sectionId, subsystem_id: groupRow.subsystem_id, parent_id: groupId, menu_name: title, menu_path: null, menu_icon: null,
            menu_type: "path", menu_target: "other", permission: null, roles: null, sort: sectionIndex, status: 1, remark: null,
            created_at: now, created_by: null, updated_at: now, updated_by: null,
          })
          .execute();
        changed = true;
      }
      for (const [sort, screen] of screens.entries()) {
        const moved = await db
          .updateTable("menu")
          .set({ parent_id: sectionId, sort, updated_at: now })
          .where("menu_path", "=", `${group.path}/${screen}/index`)
          .where("menu_type", "=", "page")
          .where("parent_id", "=", groupId)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) > 0) changed = true;
      }
      // Each role (of every tenant) holding a page of the section gets the section and the group above it.
      for (const folderId of [sectionId, groupId]) {
        const granted = await db
          .insertInto("role_menu")
          .columns(["tenant_id", "role_id", "menu_id"])
          .expression(
            db
              .selectFrom("role_menu as held")
              .innerJoin("menu as page", "page.id", "held.menu_id")
              .select(["held.tenant_id", "held.role_id"])
              .select(sql<number>`cast(${folderId} as bigint)`.as("menu_id"))
              .where("page.parent_id", "=", sectionId)
              .where((eb) =>
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom("role_menu as has")
                      .select("has.menu_id")
                      .whereRef("has.tenant_id", "=", "held.tenant_id")
                      .whereRef("has.role_id", "=", "held.role_id")
                      .where("has.menu_id", "=", folderId),
                  ),
                ),
              )
              .distinct(),
          )
          .executeTakeFirst();
        if (Number(granted.numInsertedOrUpdatedRows ?? 0) > 0) changed = true;
      }
    }
  }
  // Instances still running have the old tree cached (decision 019).
  if (changed) await db.updateTable("shell_generation").set((eb) => ({ generation: eb("generation", "+", 1) })).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const group of GROUPS) {
    const groupRow = await db.selectFrom("menu").select("id").where("menu_path", "=", group.path).where("menu_type", "=", "path").where("parent_id", "is", null).orderBy("id").executeTakeFirst();
    if (!groupRow) continue;
    for (const [title] of group.sections) {
      const sectionId = stableId(`section:${group.path}:${title}`);
      await db.updateTable("menu").set({ parent_id: groupRow.id }).where("parent_id", "=", sectionId).where("menu_type", "=", "page").execute();
      await db.deleteFrom("role_menu").where("menu_id", "=", sectionId).execute();
      await db.deleteFrom("menu").where("id", "=", sectionId).execute();
    }
  }
  await db.updateTable("shell_generation").set((eb) => ({ generation: eb("generation", "+", 1) })).execute();
}
