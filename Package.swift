// swift-tools-version: 6.3
// locationd — Core Location's permission model for Linux boards with a GPS receiver.
import PackageDescription

/// This manifest's directory: the link order file is named by an absolute path,
/// whatever directory the linker runs in.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "locationd",
    products: [
        .executable(name: "locationd", targets: ["locationd"]),
        .executable(name: "locationctl", targets: ["locationctl"]),
        .library(name: "LocationValues", targets: ["LocationValues"]),
        .library(name: "LocationCodecs", targets: ["LocationCodecs"]),
        .library(name: "LocationProtocol", targets: ["LocationProtocol"]),
        .library(name: "LocationConfig", targets: ["LocationConfig"]),
        .library(name: "LocationCore", targets: ["LocationCore"]),
        .library(name: "LocationTools", targets: ["LocationTools"]),
    ],
    targets: [
        // libgps's header from Debian's libgps-dev (in /usr/include), for types,
        // constants and signatures only: no pkgConfig, whose only flag is the
        // `-lgps` that would link it (SwiftPM puts pkg-config's flags ahead of
        // any a target can add, so not even --as-needed could drop it). CGPS
        // opens libgps.so.28 with dlopen when a gpsd source first connects, so
        // a daemon reading NMEA from its receiver never maps it or its libraries.
        .systemLibrary(
            name: "CLibGPS",
            providers: [.apt(["libgps-dev"])]
        ),
        // The only code that sees struct gps_data_t; libgps itself loaded on first use.
        .target(name: "CGPS", dependencies: ["CLibGPS", "CSupport"]),
        // libmosquitto's header from Debian's libmosquitto-dev (in /usr/include), for
        // types, constants and signatures only: no pkgConfig, whose `-lmosquitto`
        // would link it. CMQTT opens libmosquitto.so.1 with dlopen when a client
        // first publishes, so a daemon without MQTT clients never maps it or libssl.
        .systemLibrary(
            name: "CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // The only code that sees struct mosquitto: one MQTT connection, its callbacks as queued values;
        // libmosquitto itself loaded on first use.
        .target(name: "CMQTT", dependencies: ["CMosquitto", "CSupport"]),
        // sd-bus's header from Debian's libsystemd-dev, for types, constants and
        // signatures only: no pkgConfig (its only flag is `-lsystemd`), as
        // CLibGPS. CBus opens libsystemd.so.0 with dlopen when the GeoClue face
        // first opens its bus, so a daemon without the face never maps it or
        // the libraries it needs.
        .systemLibrary(
            name: "CSystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The only code that sees sd-bus: the GeoClue2 objects' vtables and sd-bus's variadic calls
        // (docs/geoclue.md); libsystemd itself loaded on first use.
        .target(name: "CBus", dependencies: ["CSystemd", "CSupport"]),
        // Small Linux helpers Swift's Glibc module does not expose cleanly
        // (SO_PEERCRED's struct ucred, openpty, termios speeds).
        .target(name: "CSupport"),
        // The libraries' layers (docs/ARCHITECTURE.md, "Layers"; LibraryLayerRuleTests
        // checks every import line against them). All pure Swift: no IO, no clock,
        // no Foundation.
        // The plain values every layer shares: the JSON codec, byte text, fixed
        // decimals, UTC time, `Fix` and the sky, the field reader, exit codes.
        .target(name: "LocationValues", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // The codecs, gpsd's drivers: NMEA 0183 and gpsd's JSON read into fixes and skies.
        .target(name: "LocationCodecs", dependencies: ["LocationValues"], swiftSettings: strict),
        // The control protocol (libgps's place in gpsd) and the values it carries: requests,
        // replies, events, commands, prompts, statuses, log records. Both programs speak it;
        // locationctl links no more of the daemon's libraries than this and LocationConfig.
        .target(name: "LocationProtocol", dependencies: ["LocationValues"], swiftSettings: strict),
        // The configuration: its model, the INI reader, what a reload changes.
        .target(name: "LocationConfig", dependencies: ["LocationValues", "LocationProtocol"], swiftSettings: strict),
        // The engine: authorization, delivery, reduced accuracy, receivers, saved state.
        .target(
            name: "LocationCore",
            dependencies: ["LocationValues", "LocationProtocol", "LocationConfig"],
            swiftSettings: strict,
            linkerSettings: [.linkedLibrary("m")]
        ),
        // Pure Swift for the tools only (locationctl): its command line, usage texts
        // and renderers, the log summary and SVG plot, the export encoders. The daemon
        // does not import it, so the compiler keeps it out of the tools' code.
        .target(name: "LocationTools", dependencies: ["LocationValues", "LocationProtocol"], swiftSettings: strict),
        // The Linux calls both programs make: descriptors and their errors, files
        // opened safely and replaced atomically, the clock, the configuration files.
        // No libgps, no libmosquitto.
        .target(
            name: "LocationSystem",
            dependencies: ["LocationConfig", "CSupport"],
            swiftSettings: strict
        ),
        // What locationctl needs beyond LocationCore: the control-socket client and
        // the readers of a client's log (export, tail).
        .target(
            name: "LocationClient",
            dependencies: ["LocationValues", "LocationProtocol", "LocationTools", "LocationSystem"],
            swiftSettings: strict
        ),
        // The IO shell: sources, log writer, state store, control server, systemd.
        .target(
            name: "LocationDaemon",
            dependencies: ["LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "LocationSystem", "CGPS", "CMQTT", "CSupport", "CBus"],
            swiftSettings: strict
        ),
        // Linked with lld and packed relative relocations (DT_RELR, glibc 2.36):
        // the table of relocations shrinks from 0.6 MB to a few kB, and the pages
        // ld.so writes to apply them at start stay untouched (issue #10: resident
        // memory). In release, the functions a running daemon uses are laid out
        // first, together (symbol-order.txt, written by scripts/symbol-order;
        // the Makefile compiles with function sections so that lld can move them
        // one by one), and none of locationd's own symbols is exported to the
        // dynamic symbol table, which nothing looks up (backtraces read the
        // symbol table, in locationd-dbgsym once the package strips it). And the
        // few functions of libstdc++ the Swift runtime calls come from libstdc++.a,
        // so that libstdc++.so.6 is neither mapped nor relocated at each start
        // (about 1 MB of the peak resident memory: docs/performance.md).
        // unsafeFlags is fine here: locationd is an executable, in no library
        // product; lld comes with swift.org's toolchain.
        .executableTarget(
            name: "locationd",
            dependencies: ["LocationValues", "LocationCore", "LocationSystem", "LocationDaemon"],
            exclude: ["symbol-order.txt", "static-libstdc++"],
            swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]),
                .unsafeFlags([
                    "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/locationd/symbol-order.txt",
                    "-Xlinker", "--no-warn-symbol-ordering",
                    "-Xlinker", "--no-export-dynamic",
                    // libstdc++ linked in statically: the toolchain's -lstdc++ finds the
                    // linker script in this directory first (static-libstdc++/libstdc++.so).
                    "-L", "\(packageDirectory)/Sources/locationd/static-libstdc++",
                ], .when(configuration: .release)),
            ]
        ),
        // Links neither libgps nor libmosquitto nor the daemon.
        .executableTarget(
            name: "locationctl",
            dependencies: ["LocationValues", "LocationProtocol", "LocationConfig", "LocationTools", "LocationSystem", "LocationClient"],
            swiftSettings: strict
        ),
        // What the tests and the daemon benchmark share: child processes
        // waited for off the cooperative pool, gpsfake, the notify-socket
        // stand-in, files, and where the package and its fixtures are.
        .target(
            name: "TestSupport",
            dependencies: ["LocationValues", "LocationProtocol", "LocationConfig", "LocationCore", "CSupport"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LocationCoreTests",
            dependencies: ["LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LocationToolsTests",
            dependencies: ["LocationValues", "LocationProtocol", "LocationCore", "LocationTools", "TestSupport"],
            // Read through PackagePaths, as the source tree has them.
            exclude: ["Vectors"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LocationSystemTests",
            dependencies: ["LocationConfig", "LocationSystem", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LocationClientTests",
            dependencies: ["LocationProtocol", "LocationTools", "LocationSystem", "LocationClient", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LocationDaemonTests",
            dependencies: ["LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "LocationTools", "LocationSystem", "LocationClient", "LocationDaemon", "CGPS", "CSupport", "TestSupport"],
            swiftSettings: strict
        ),
        // Built executables driven end to end: locationd and locationctl over real
        // sockets, gpsd fed by gpsfake.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["LocationValues", "LocationCodecs", "LocationProtocol", "LocationConfig", "LocationCore", "LocationTools", "LocationSystem", "LocationClient", "LocationDaemon", "CSupport", "TestSupport"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EngineBenchmark",
            dependencies: ["LocationValues", "LocationConfig", "LocationCore"],
            path: "Benchmarks/EngineBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ParserBenchmark",
            dependencies: ["LocationCodecs", "LocationCore"],
            path: "Benchmarks/ParserBenchmark",
            swiftSettings: strict
        ),
        // locationd run vs gpxlogger on one gpsd stream; locationd replay vs gpsdecode.
        .executableTarget(
            name: "DaemonBenchmark",
            dependencies: ["TestSupport"],
            path: "Benchmarks/DaemonBenchmark",
            swiftSettings: strict
        ),
        // locationd's GeoClue face vs GeoClue 2.6 fed by locationd: CPU per position, TPV → LocationUpdated.
        .executableTarget(
            name: "GeoClueBenchmark",
            dependencies: ["LocationValues", "LocationCore", "TestSupport", "CSystemd"],
            path: "Benchmarks/GeoClueBenchmark",
            swiftSettings: strict,
            // Its bus probe calls sd-bus itself; CSystemd links nothing (the daemon opens libsystemd on first use).
            linkerSettings: [.linkedLibrary("systemd")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
