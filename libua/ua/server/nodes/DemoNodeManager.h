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
// NodeIds are strings named after the path: ns=<demo>;s=Demo.Scalars.Int32.
#pragma once

#include "ua/server/addressspace/NodeManager.h"

#include <atomic>

namespace ua {

class DemoNodeManager final : public NodeManager {
public:
    static constexpr const char* kUri = "urn:ua-workbench:demo";
    explicit DemoNodeManager(uint32_t updateRateMs = 1000) : NodeManager(kUri), m_updateRateMs(updateRateMs) {}

protected:
    StatusCode populate(AddressSpace& space) override;

private:
    StatusCode addSimulation(AddressSpace& space, const NodeId& parent);
    StatusCode addAnalog(AddressSpace& space, const NodeId& parent, std::string_view name, double value,
                         double low, double high, const char* unit, int32_t unitId);
    // Shared with the simulation callbacks, which may outlive nothing: the manager lives as long
    // as the server.
    std::shared_ptr<std::atomic<uint32_t>> m_rate = std::make_shared<std::atomic<uint32_t>>(1000);
    uint32_t m_updateRateMs;
};

} // namespace ua
