// The single-page app's entry point.

import { start } from './router.js';
import { registerOffline } from './offline.js';

start();
registerOffline();
