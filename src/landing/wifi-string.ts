// The string lives with the Wi-Fi type, since a direct Wi-Fi code's image encodes it too; the page shows it.
export { wifiString } from '../codes/types/wifi-string.js';
