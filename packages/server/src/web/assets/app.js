// The dashboard's only script: progressive enhancement, every page works without it.
// A button with data-copy="<element id>" copies that element's text (a secret shown once).
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null
  if (!button) return
  const source = document.getElementById(button.getAttribute('data-copy') || '')
  if (!source || !navigator.clipboard) return
  navigator.clipboard.writeText(source.textContent || '').then(() => {
    button.textContent = 'Copied'
  })
})
for (const button of document.querySelectorAll('[data-copy][hidden]')) button.hidden = false
