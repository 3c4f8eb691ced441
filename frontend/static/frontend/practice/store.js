// Offline practice's saved games (PF-62): one practice table per game, kept in IndexedDB so a game
// resumes after a reload or a browser restart. Used by the worker (which writes) and by the
// practice pages (which only look). Values are the practice table's JSON (cardgames/practice/table.py).
const DB = "tapete-practice";
const STORE = "tables";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, act) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export const tableKey = (game) => `table:${game}`;
export const loadTable = (game) => run("readonly", (store) => store.get(tableKey(game)));
export const saveTable = (game, table) => run("readwrite", (store) => store.put(table, tableKey(game)));
export const dropTable = (game) => run("readwrite", (store) => store.delete(tableKey(game)));
export const savedGames = async () => (await run("readonly", (store) => store.getAllKeys())).map((key) => String(key).replace(/^table:/, ""));
