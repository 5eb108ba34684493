// How to get Chromium, in every message that says it is missing (kept apart from browser.ts so
// that the services name it without loading playwright-core).
export const INSTALL_HINT =
  'Install Chromium (Debian/Ubuntu: apt-get install -y chromium) or set PAGEGRADE_CHROMIUM_PATH to its executable.';
