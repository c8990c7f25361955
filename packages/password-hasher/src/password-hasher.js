"use strict";
var __extends = (this && this.__extends) || (function () {
    var extendStatics = function (d, b) {
        extendStatics = Object.setPrototypeOf ||
            ({ __proto__: [] } instanceof Array && function (d, b) { d.__proto__ = b; }) ||
            function (d, b) { for (var p in b) if (Object.prototype.hasOwnProperty.call(b, p)) d[p] = b[p]; };
        return extendStatics(d, b);
    };
    return function (d, b) {
        if (typeof b !== "function" && b !== null)
            throw new TypeError("Class extends value " + String(b) + " is not a constructor or null");
        extendStatics(d, b);
        function __() { this.constructor = d; }
        d.prototype = b === null ? Object.create(b) : (__.prototype = b.prototype, new __());
    };
})();
var __assign = (this && this.__assign) || function () {
    __assign = Object.assign || function(t) {
        for (var s, i = 1, n = arguments.length; i < n; i++) {
            s = arguments[i];
            for (var p in s) if (Object.prototype.hasOwnProperty.call(s, p))
                t[p] = s[p];
        }
        return t;
    };
    return __assign.apply(this, arguments);
};
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
var __spreadArray = (this && this.__spreadArray) || function (to, from, pack) {
    if (pack || arguments.length === 2) for (var i = 0, l = from.length, ar; i < l; i++) {
        if (ar || !(i in from)) {
            if (!ar) ar = Array.prototype.slice.call(from, 0, i);
            ar[i] = from[i];
        }
    }
    return to.concat(ar || Array.prototype.slice.call(from));
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createPasswordHasher = createPasswordHasher;
var node_perf_hooks_1 = require("node:perf_hooks");
var node_worker_threads_1 = require("node:worker_threads");
var services_1 = require("@vexil/services");
var rest_after_job_ts_1 = require("./rest-after-job.ts");
/** bcrypt refused its input (not a bcrypt hash, a cost it does not know): for verify, no match. */
var HashRefused = /** @class */ (function (_super) {
    __extends(HashRefused, _super);
    function HashRefused() {
        return _super !== null && _super.apply(this, arguments) || this;
    }
    return HashRefused;
}(Error));
var closedError = function () { return new services_1.ServiceUnavailable("The server is stopping; try again shortly."); };
/**
 * A fixed pool of worker threads running bcrypt. Hashes are standard `$2b$`/`$2a$`/`$2y$`
 * bcrypt, so hashes copied from an Unleash database verify as they are.
 */
function createPasswordHasher(_a) {
    var _this = this;
    var workers = _a.workers, cost = _a.cost, _b = _a.busyShare, busyShare = _b === void 0 ? rest_after_job_ts_1.DEFAULT_BUSY_SHARE : _b;
    var all = new Set();
    var idle = [];
    var busy = new Map();
    var resting = new Set();
    var queue = [];
    var nextId = 1;
    var closed = false;
    // Set when a worker failed before it ever answered: starting another would fail alike.
    var broken;
    var dispatch = function () {
        while (idle.length && queue.length) {
            var worker = idle.pop();
            var job = queue.shift();
            busy.set(worker, __assign(__assign({}, job), { loop: node_perf_hooks_1.performance.eventLoopUtilization() }));
            // A job in hand keeps the process alive until its caller has the answer.
            worker.ref();
            worker.postMessage({ id: job.id, op: job.op, password: job.password, hash: job.hash, cost: job.cost });
        }
    };
    var release = function (worker, restMs) {
        // Idle workers must not keep a finished process alive.
        worker.unref();
        if (restMs <= 0) {
            idle.push(worker);
            return;
        }
        var timer = setTimeout(function () {
            resting.delete(timer);
            // A worker that died while resting has been replaced already; it must not take jobs.
            if (all.has(worker))
                idle.push(worker);
            dispatch();
        }, restMs);
        resting.add(timer);
    };
    var start = function () {
        var worker = new node_worker_threads_1.Worker(new URL("./password-worker.mjs", import.meta.url));
        worker.unref();
        var answered = false;
        worker.on("message", function (reply) {
            answered = true;
            var job = busy.get(worker);
            busy.delete(worker);
            if (!job)
                return;
            if (reply.error !== undefined)
                job.reject(new HashRefused(reply.error));
            else
                job.resolve(reply.result);
            release(worker, (0, rest_after_job_ts_1.restAfterJob)(reply.ms, node_perf_hooks_1.performance.eventLoopUtilization(job.loop).utilization, busyShare));
            dispatch();
        });
        // A worker that dies (out of memory, say) fails only its own job; another takes its place.
        worker.on("error", function (error) {
            var _a;
            (_a = busy.get(worker)) === null || _a === void 0 ? void 0 : _a.reject(error);
            busy.delete(worker);
            all.delete(worker);
            var at = idle.indexOf(worker);
            if (at !== -1)
                idle.splice(at, 1);
            if (closed)
                return;
            if (answered) {
                idle.push(start());
                dispatch();
                return;
            }
            broken = error;
            if (all.size === 0)
                for (var _i = 0, _b = queue.splice(0); _i < _b.length; _i++) {
                    var job = _b[_i];
                    job.reject(error);
                }
        });
        all.add(worker);
        return worker;
    };
    for (var i = 0; i < Math.max(1, workers); i++)
        idle.push(start());
    var run = function (op, password, hash) {
        return new Promise(function (resolve, reject) {
            if (closed)
                return reject(closedError());
            if (broken && all.size === 0)
                return reject(broken);
            queue.push({ id: nextId++, op: op, password: password, hash: hash, cost: cost, resolve: resolve, reject: reject });
            dispatch();
        });
    };
    var dummy;
    return {
        hash: function (password) { return run("hash", password); },
        verify: function (password, hash) { return __awaiter(_this, void 0, void 0, function () {
            var error_1;
            return __generator(this, function (_a) {
                switch (_a.label) {
                    case 0:
                        _a.trys.push([0, 2, , 3]);
                        return [4 /*yield*/, run("verify", password, hash)];
                    case 1: return [2 /*return*/, (_a.sent()) === true];
                    case 2:
                        error_1 = _a.sent();
                        // Only bcrypt's own refusal is a verdict; a stopping server or a dead worker is not one,
                        // and must not count as a wrong password.
                        if (error_1 instanceof HashRefused)
                            return [2 /*return*/, false];
                        throw error_1;
                    case 3: return [2 /*return*/];
                }
            });
        }); },
        dummyHash: function () { return (dummy !== null && dummy !== void 0 ? dummy : (dummy = run("hash", "dummy-".concat(Math.random(), "-").concat(Date.now())))); },
        close: function () { return __awaiter(_this, void 0, void 0, function () {
            var _i, resting_1, timer, _a, _b, job;
            return __generator(this, function (_c) {
                switch (_c.label) {
                    case 0:
                        closed = true;
                        for (_i = 0, resting_1 = resting; _i < resting_1.length; _i++) {
                            timer = resting_1[_i];
                            clearTimeout(timer);
                        }
                        resting.clear();
                        for (_a = 0, _b = __spreadArray(__spreadArray([], queue.splice(0), true), busy.values(), true); _a < _b.length; _a++) {
                            job = _b[_a];
                            job.reject(closedError());
                        }
                        busy.clear();
                        return [4 /*yield*/, Promise.all(__spreadArray([], all, true).map(function (w) { return w.terminate(); }))];
                    case 1:
                        _c.sent();
                        return [2 /*return*/];
                }
            });
        }); },
    };
}
