// TablePages client.
"use strict";
