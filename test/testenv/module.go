package testenv

// KeptModuleBytes is a script for one of the extension's pages: it resolves
// to the size of the module copy the background keeps in the extension's
// IndexedDB (jsglue/background.js), 0 when there is none.
const KeptModuleBytes = `new Promise((resolve) => {
	const open = indexedDB.open("webbrain-module");
	open.onerror = () => resolve(0);
	open.onsuccess = () => {
		const db = open.result;
		if (!db.objectStoreNames.contains("module")) { db.close(); return resolve(0); }
		const all = db.transaction("module").objectStore("module").getAll();
		all.onsuccess = () => { db.close(); resolve(all.result.reduce((n, b) => n + (b.size ?? 0), 0)); };
		all.onerror = () => { db.close(); resolve(0); };
	};
})`
