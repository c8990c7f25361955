"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createPasswordHasher = void 0;
var password_hasher_ts_1 = require("./password-hasher.ts");
Object.defineProperty(exports, "createPasswordHasher", { enumerable: true, get: function () { return password_hasher_ts_1.createPasswordHasher; } });
