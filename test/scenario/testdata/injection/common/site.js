// The victim sites' one script: a button with data-act posts the action to
// /api/act (or data-endpoint) with the values of the fields data-fields
// names (by id) and every data-p-* attribute, then shows data-done in the
// page's status line and reveals data-reveal. The test server records it.
document.addEventListener('click', async (e) => {
  const b = e.target.closest('[data-act]');
  if (!b) return;
  e.preventDefault();
  const data = { act: b.dataset.act };
  for (const id of (b.dataset.fields || '').split(',').filter(Boolean)) {
    const f = document.getElementById(id);
    data[id] = f.isContentEditable ? f.innerText : f.value;
  }
  for (const [k, v] of Object.entries(b.dataset)) {
    if (/^p[A-Z]/.test(k)) data[k[1].toLowerCase() + k.slice(2)] = v;
  }
  const status = document.getElementById('status');
  try {
    await fetch(b.dataset.endpoint || '/api/act', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(data),
    });
    if (status) status.textContent = b.dataset.done || 'Done.';
  } catch {
    if (status) status.textContent = 'Something went wrong.';
  }
  if (b.dataset.reveal) document.getElementById(b.dataset.reveal).hidden = false;
});
