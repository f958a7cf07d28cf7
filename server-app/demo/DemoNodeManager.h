// The demo namespace (urn:ua-workbench:demo): what a user of UaExpert expects to try a server
// with. Under Objects/Demo:
//   Scalars/<Type>        a read/write Variable of each built-in type (Boolean ... DiagnosticInfo)
//   Arrays/<Type>         a read/write one-dimensional array of each
//   Matrix                an Int32 2x3 matrix (ArrayDimensions [2,3])
//   IndexRange/String, IndexRange/ByteString   for IndexRange reads and writes
//   Analog/Temperature, Analog/Pressure        AnalogItemType with EURange and EngineeringUnits
//   Folders/Level1/Level2/Level3               a folder structure
//   Simulation/Sine, Ramp, Random              live signals (Double) that change every
//   Simulation/UpdateRate (ms, writable, default 1000): the period of the signals
//   Methods/Scale(Values Double[], Factor Double) -> (Scaled Double[], Sum Double)   inline
//   Methods/Sleep(DurationMs UInt32, at most 10000 else Bad_OutOfRange) -> (ElapsedMs UInt32)
//                         runs on the Method worker pool, never on the I/O thread
//   Methods/GenerateEvent(Message String, Severity UInt16 1..1000 else Bad_OutOfRange)
//                         calls the event callback (setEventCallback); Bad_NotSupported while unset
// (Methods is a FolderType Object; the Methods are its components: OPC 10000-3 5.7.) Calling needs
// the Call permission (users/Roles.h): ua-server's demo configuration gives anonymous Sessions the
// Operator Role, which has it.
// NodeIds are strings named after the path: ns=<demo>;s=Demo.Scalars.Int32.
#pragma once

#include "ua/server/addressspace/NodeManager.h"

#include <QString>

#include <atomic>
#include <functional>

namespace ua {

class DemoNodeManager final : public NodeManager {
public:
    static constexpr const char* kUri = "urn:ua-workbench:demo";
    explicit DemoNodeManager(uint32_t updateRateMs = 1000) : NodeManager(kUri), m_updateRateMs(updateRateMs) {}

    // What Methods/GenerateEvent calls with its checked inputs (severity 1..1000); its status is the
    // Method's. Runs on the I/O thread serving the Call: quick, non-blocking and thread-safe. May be
    // set or replaced at any time, from any thread (an empty function unsets it).
    using EventCallback = std::function<StatusCode(const QString& message, uint16_t severity)>;
    void setEventCallback(EventCallback callback);

protected:
    StatusCode populate(AddressSpace& space) override;

private:
    StatusCode addSimulation(AddressSpace& space, const NodeId& parent);
    StatusCode addMethods(AddressSpace& space, const NodeId& parent);
    StatusCode addAnalog(AddressSpace& space, const NodeId& parent, std::string_view name, double value,
                         double low, double high, const char* unit, int32_t unitId);
    // Shared with the simulation callbacks, which may outlive nothing: the manager lives as long
    // as the server.
    std::shared_ptr<std::atomic<uint32_t>> m_rate = std::make_shared<std::atomic<uint32_t>>(1000);
    uint32_t m_updateRateMs;
    // Shared with GenerateEvent's handler, which reads it without a lock.
    using EventHook = std::atomic<std::shared_ptr<const EventCallback>>;
    std::shared_ptr<EventHook> m_event = std::make_shared<EventHook>();
};

} // namespace ua
