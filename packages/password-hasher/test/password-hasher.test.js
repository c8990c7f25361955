"use strict";
var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
var __generator = (this && this.__generator) || function (thisArg, body) {
    var _ = { label: 0, sent: function() { if (t[0] & 1) throw t[1]; return t[1]; }, trys: [], ops: [] }, f, y, t, g = Object.create((typeof Iterator === "function" ? Iterator : Object).prototype);
    return g.next = verb(0), g["throw"] = verb(1), g["return"] = verb(2), typeof Symbol === "function" && (g[Symbol.iterator] = function() { return this; }), g;
    function verb(n) { return function (v) { return step([n, v]); }; }
    function step(op) {
        if (f) throw new TypeError("Generator is already executing.");
        while (g && (g = 0, op[0] && (_ = 0)), _) try {
            if (f = 1, y && (t = op[0] & 2 ? y["return"] : op[0] ? y["throw"] || ((t = y["return"]) && t.call(y), 0) : y.next) && !(t = t.call(y, op[1])).done) return t;
            if (y = 0, t) op = [op[0] & 2, t.value];
            switch (op[0]) {
                case 0: case 1: t = op; break;
                case 4: _.label++; return { value: op[1], done: false };
                case 5: _.label++; y = op[1]; op = [0]; continue;
                case 7: op = _.ops.pop(); _.trys.pop(); continue;
                default:
                    if (!(t = _.trys, t = t.length > 0 && t[t.length - 1]) && (op[0] === 6 || op[0] === 2)) { _ = 0; continue; }
                    if (op[0] === 3 && (!t || (op[1] > t[0] && op[1] < t[3]))) { _.label = op[1]; break; }
                    if (op[0] === 6 && _.label < t[1]) { _.label = t[1]; t = op; break; }
                    if (t && _.label < t[2]) { _.label = t[2]; _.ops.push(op); break; }
                    if (t[2]) _.ops.pop();
                    _.trys.pop(); continue;
            }
            op = body.call(thisArg, _);
        } catch (e) { op = [6, e]; y = 0; } finally { f = t = 0; }
        if (op[0] & 5) throw op[1]; return { value: op[0] ? op[1] : void 0, done: true };
    }
};
Object.defineProperty(exports, "__esModule", { value: true });
var uvu_1 = require("uvu");
var assert = require("uvu/assert");
var rest_after_job_ts_1 = require("../src/rest-after-job.ts");
var index_ts_1 = require("../src/index.ts");
(0, uvu_1.test)("hashes as bcrypt and verifies: right password, wrong password, unreadable hash", function () { return __awaiter(void 0, void 0, void 0, function () {
    var hasher, hash, _a, _b, _c, _d, _e, _f;
    return __generator(this, function (_g) {
        switch (_g.label) {
            case 0:
                hasher = (0, index_ts_1.createPasswordHasher)({ workers: 1, cost: 10 });
                _g.label = 1;
            case 1:
                _g.trys.push([1, , 6, 8]);
                return [4 /*yield*/, hasher.hash("correct horse battery")];
            case 2:
                hash = _g.sent();
                assert.match(hash, /^\$2[aby]\$10\$/);
                _b = (_a = assert).is;
                return [4 /*yield*/, hasher.verify("correct horse battery", hash)];
            case 3:
                _b.apply(_a, [_g.sent(), true]);
                _d = (_c = assert).is;
                return [4 /*yield*/, hasher.verify("correct horse batterz", hash)];
            case 4:
                _d.apply(_c, [_g.sent(), false]);
                _f = (_e = assert).is;
                return [4 /*yield*/, hasher.verify("correct horse battery", "not a bcrypt hash")];
            case 5:
                _f.apply(_e, [_g.sent(), false]);
                return [3 /*break*/, 8];
            case 6: return [4 /*yield*/, hasher.close()];
            case 7:
                _g.sent();
                return [7 /*endfinally*/];
            case 8: return [2 /*return*/];
        }
    });
}); });
(0, uvu_1.test)("a worker rests after a job only while the event loop was busy, for its share of the time", function () {
    assert.is((0, rest_after_job_ts_1.restAfterJob)(70, 0.95, 0.5), 70, "half of the time while busy: rests as long as it worked");
    assert.is((0, rest_after_job_ts_1.restAfterJob)(70, 0.95, 0.25), 210);
    assert.is((0, rest_after_job_ts_1.restAfterJob)(70, 0.5, 0.5), 0, "a quiet event loop never holds logins back");
    assert.is((0, rest_after_job_ts_1.restAfterJob)(70, 0.95, 1), 0, "a share of 1 turns resting off");
    assert.is((0, rest_after_job_ts_1.restAfterJob)(5000, 0.95, 0.5), 1000, "one long job holds logins back for a second at most");
});
(0, uvu_1.test)("close settles the job in a worker and the jobs waiting for one as ServiceUnavailable, not as wrong passwords", function () { return __awaiter(void 0, void 0, void 0, function () {
    var hasher, hash, outcome, running, waiting, stopping, _a, _b, _c, _d, _e, _f;
    return __generator(this, function (_g) {
        switch (_g.label) {
            case 0:
                hasher = (0, index_ts_1.createPasswordHasher)({ workers: 1, cost: 12 });
                return [4 /*yield*/, hasher.hash("correct horse battery")];
            case 1:
                hash = _g.sent();
                outcome = function (promise) {
                    return promise.then(function (value) { return "resolved ".concat(value); }, function (error) { return "".concat(error.name, ": ").concat(error.message); });
                };
                running = outcome(hasher.verify("correct horse battery", hash));
                waiting = outcome(hasher.hash("another password"));
                return [4 /*yield*/, hasher.close()];
            case 2:
                _g.sent();
                stopping = "ServiceUnavailable: The server is stopping; try again shortly.";
                _b = (_a = assert).is;
                return [4 /*yield*/, running];
            case 3:
                _b.apply(_a, [_g.sent(), stopping, "cut off before it could match, which says nothing about the password"]);
                _d = (_c = assert).is;
                return [4 /*yield*/, waiting];
            case 4:
                _d.apply(_c, [_g.sent(), stopping]);
                _f = (_e = assert).is;
                return [4 /*yield*/, outcome(hasher.verify("correct horse battery", hash))];
            case 5:
                _f.apply(_e, [_g.sent(), stopping]);
                return [2 /*return*/];
        }
    });
}); });
uvu_1.test.run();
